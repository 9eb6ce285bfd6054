import BeaconCore

/// The ranging loop: turns beacon sightings into one ``RangingUpdate`` per cycle.
///
/// The loop never reads a clock. Cycle boundaries come from the sightings' own timestamps
/// (``ingest(_:onUpdate:)`` first closes every cycle that ended at or before the sighting, empty
/// ones included) or from a time the caller gives (``advance(to:onUpdate:)``, for a live loop
/// driven by a timer). Replay and simulation therefore run at any speed with identical output.
///
/// Cycles are `[k·L, (k+1)·L)` for the configured length `L`; an update is emitted at each
/// boundary while at least one beacon is tracked (idle stretches with nothing tracked emit
/// nothing). A sighting older than the current cycle is counted in ``lateSightings`` and
/// dropped. Updates are built in buffers the loop reuses: a handler that does not keep the
/// update lets the loop run without allocating in steady state.
public struct RangingLoop: Sendable {
    /// The configuration, fixed at construction.
    public let configuration: RangingConfiguration

    /// Sightings dropped because they were older than the current cycle.
    public private(set) var lateSightings = 0
    /// Start of the cycle being filled, once the loop has seen a time.
    public internal(set) var currentCycleStart: Timestamp?

    let cycleNanoseconds: Int64
    let graceNanoseconds: Int64
    let retentionNanoseconds: Int64
    /// Exit timeout (ns) of each configured region.
    let exitTimeouts: [Int64]
    /// The spike clamp's largest step (dB); infinite when off.
    let maxStep: Double

    var index = BeaconIndex()
    var beacons: [TrackedBeacon] = []
    var enterEvents: [RegionEvent] = []
    var update = RangingUpdate(cycleStart: .epoch, time: .epoch)

    /// A loop with `configuration`; throws when the configuration cannot work.
    public init(configuration: RangingConfiguration = RangingConfiguration()) throws(RangingConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        cycleNanoseconds = configuration.cycleLength.nanoseconds
        graceNanoseconds = configuration.missedScanGrace.nanoseconds
        exitTimeouts = configuration.regions.map { ($0.exitTimeout ?? configuration.defaultExitTimeout).nanoseconds }
        retentionNanoseconds = max(configuration.retention.nanoseconds, exitTimeouts.max() ?? 0)
        maxStep = configuration.spikeClamp ?? .infinity
    }

    /// Number of beacons currently tracked (listed, in grace, or awaiting eviction).
    public var trackedCount: Int { beacons.count }

    /// Feeds one sighting. First emits, through `onUpdate`, the update of every cycle that ended
    /// at or before the sighting's timestamp.
    public mutating func ingest(_ sighting: BeaconSighting,
                                onUpdate: (RangingUpdate) throws -> Void) rethrows {
        let t = sighting.timestamp.nanosecondsSinceEpoch
        guard let start = currentCycleStart?.nanosecondsSinceEpoch else {
            currentCycleStart = Timestamp(nanosecondsSinceEpoch: cycleFloor(t))
            record(sighting)
            return
        }
        guard t >= start else {
            lateSightings += 1
            return
        }
        if t >= start &+ cycleNanoseconds { try closeCycles(through: t, onUpdate: onUpdate) }
        record(sighting)
    }

    /// Declares that time has reached `now`: emits the update of every cycle that ended at or
    /// before `now`.
    public mutating func advance(to now: Timestamp, onUpdate: (RangingUpdate) throws -> Void) rethrows {
        guard currentCycleStart != nil else {
            currentCycleStart = Timestamp(nanosecondsSinceEpoch: cycleFloor(now.nanosecondsSinceEpoch))
            return
        }
        try closeCycles(through: now.nanosecondsSinceEpoch, onUpdate: onUpdate)
    }

    /// The start of the cycle containing `t` (ns).
    func cycleFloor(_ t: Int64) -> Int64 {
        let (q, r) = t.quotientAndRemainder(dividingBy: cycleNanoseconds)
        return (r < 0 ? q - 1 : q) * cycleNanoseconds
    }

    @inline(__always)
    private mutating func record(_ sighting: BeaconSighting) {
        let found = beacons.withUnsafeBufferPointer { all in index.slot(of: sighting.id) { all[$0].id } }
        if let slot = found {
            beacons[slot].record(sighting, maxStep: maxStep)
            if beacons[slot].regionMask != 0 { enterRegions(slot: slot, time: sighting.timestamp) }
            return
        }
        track(sighting)
    }

    private mutating func track(_ sighting: BeaconSighting) {
        var beacon = TrackedBeacon(id: sighting.id, filter: configuration.filter.makeFilter(),
                                   time: sighting.timestamp, address: sighting.address,
                                   regionMask: regionMask(of: sighting.id))
        beacon.record(sighting, maxStep: maxStep)
        beacons.append(beacon)
        let slot = beacons.count - 1
        beacons.withUnsafeBufferPointer { all in index.insert(sighting.id, slot: slot) { all[$0].id } }
        enterRegions(slot: slot, time: sighting.timestamp)
    }

    private func regionMask(of id: BeaconID) -> UInt64 {
        var mask: UInt64 = 0
        for (i, region) in configuration.regions.enumerated() where region.contains(id) { mask |= 1 << UInt64(i) }
        return mask
    }

    private mutating func enterRegions(slot: Int, time: Timestamp) {
        let mask = beacons[slot].regionMask
        var entering = mask & ~beacons[slot].insideMask
        guard entering != 0 else { return }
        beacons[slot].insideMask = mask
        let id = beacons[slot].id
        while entering != 0 {
            let i = entering.trailingZeroBitCount
            entering &= entering - 1
            enterEvents.append(RegionEvent(kind: .enter, regionID: configuration.regions[i].id,
                                           beacon: id, time: time))
        }
    }
}
