import BeaconCore

/// The ranging loop: turns beacon sightings into one `RangingUpdate` per cycle.
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
/// update lets the loop run without allocating in steady state. ``ingest(contentsOf:onUpdate:)``
/// takes a batch and overlaps the memory fetches of its lookups.
public struct RangingLoop: Sendable {
    /// The configuration, fixed at construction.
    public let configuration: RangingConfiguration

    /// Sightings dropped because they were older than the current cycle.
    public private(set) var lateSightings = 0
    /// Sightings of new beacons refused because ``RangingConfiguration/maxTracked`` beacons were
    /// tracked (a flood of identities, or a cap set too low).
    public internal(set) var refusedBeacons = 0
    /// Beacons evicted, least recently seen first, to keep room under ``RangingConfiguration/maxTracked``.
    public internal(set) var cappedEvictions = 0
    /// New beacons refused, or displaced by louder ones, because a cycle brought in
    /// ``RangingConfiguration/maxNewPerCycle`` already (a flood of identities).
    public internal(set) var refusedNewcomers = 0
    /// Times the tables were shrunk after most of what they held had gone.
    public internal(set) var shrinks = 0
    /// Start of the cycle being filled, once the loop has seen a time.
    public internal(set) var currentCycleStart: Timestamp?

    let cycleNanoseconds: Int64
    let graceNanoseconds: Int64
    let retentionNanoseconds: Int64
    /// Exit timeout (ns) of each configured region.
    let exitTimeouts: [Int64]
    /// The spike clamp's largest step (dB); infinite when off.
    let maxStep: Double
    /// Whether the spike clamp is on.
    let clamps: Bool
    /// The ARMA filter's speed when the filter is ARMA (run inline on the hot state), else `nil`.
    let armaSpeed: Double?
    /// ``EnterConfirmation/window`` in nanoseconds.
    let enterWindowNanoseconds: Int64

    /// The tracked beacons: their index and their state by slot.
    var tracked: TrackedBeaconTable
    var enterEvents: [RegionEvent] = []
    /// The beacons this cycle brought in (at most ``RangingConfiguration/maxNewPerCycle``).
    var newcomers: NewcomerGate
    /// Sightings accepted by ``ingest(_:onUpdate:)`` but not yet recorded, oldest first (see
    /// `RangingLoop+Pipeline.swift`); recorded before any cycle closes.
    var pendingOlder: BeaconSighting?
    var pendingNewer: BeaconSighting?
    var update = RangingUpdate(cycleStart: .epoch, time: .epoch)

    /// From how many tracked beacons on the loop prefetches (tests lower it to exercise the
    /// prefetching paths with few beacons).
    let prefetchFromCount: Int

    /// A loop with `configuration`; throws when the configuration cannot work.
    public init(configuration: RangingConfiguration = RangingConfiguration()) throws(RangingConfigurationError) {
        try self.init(configuration: configuration, prefetchFromCount: Self.defaultPrefetchFromCount)
    }

    /// A loop that prefetches from `prefetchFromCount` tracked beacons on.
    init(configuration: RangingConfiguration, prefetchFromCount: Int) throws(RangingConfigurationError) {
        try configuration.validate()
        self.prefetchFromCount = prefetchFromCount
        self.configuration = configuration
        cycleNanoseconds = configuration.cycleLength.nanoseconds
        graceNanoseconds = configuration.missedScanGrace.nanoseconds
        exitTimeouts = configuration.regions.map { ($0.exitTimeout ?? configuration.defaultExitTimeout).nanoseconds }
        retentionNanoseconds = max(configuration.retention.nanoseconds, exitTimeouts.max() ?? 0)
        maxStep = configuration.spikeClamp ?? .infinity
        clamps = configuration.spikeClamp != nil
        if case .arma(let c) = configuration.filter { armaSpeed = c.speed } else { armaSpeed = nil }
        enterWindowNanoseconds = configuration.enter.window.nanoseconds
        tracked = TrackedBeaconTable(keepsFilters: armaSpeed == nil)
        newcomers = NewcomerGate(capacity: configuration.maxNewPerCycle)
    }

    /// Number of beacons currently tracked (listed, in grace, or awaiting eviction).
    public var trackedCount: Int { tracked.count + pendingNewBeacons }

    /// The update of the latest cycle closed (empty before the first). Reading it is free; keeping
    /// the copy past the next cycle makes that cycle allocate a new buffer (the loop reuses its
    /// own), so a status page reads it on demand only.
    public var latestUpdate: RangingUpdate { update }

    /// Feeds one sighting. First emits, through `onUpdate`, the update of every cycle that ended
    /// at or before the sighting's timestamp.
    ///
    /// With many tracked beacons the sighting is recorded two calls later (or when a cycle
    /// closes, whichever comes first), after the loop has asked the processor to fetch its index
    /// bucket and state: the memory fetches of consecutive sightings then overlap. Nothing
    /// observable changes: every update, ``trackedCount`` and ``lateSightings`` are as if it were
    /// recorded at once.
    public mutating func ingest(
        _ sighting: BeaconSighting,
        onUpdate: (RangingUpdate) throws -> Void
    ) rethrows {
        try ingest(sighting, deferring: true, onUpdate: onUpdate)
    }

    /// ``ingest(_:onUpdate:)``; `deferring`: whether the sighting may go through the pipeline of
    /// pending sightings (the batch path prefetches on its own and records at once).
    @inline(__always)
    mutating func ingest(
        _ sighting: BeaconSighting, deferring: Bool,
        onUpdate: (RangingUpdate) throws -> Void
    ) rethrows {
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
        if deferring && (tracked.count >= prefetchFromCount || pendingNewer != nil) {
            enqueue(sighting)
        } else {
            record(sighting)
        }
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
    mutating func record(_ sighting: BeaconSighting) {
        let id = sighting.id
        if let slot = tracked.slot(of: id) {
            record(sighting, at: slot)
        } else {
            track(sighting)
        }
    }

    /// Records a sighting of the beacon at `slot`.
    @inline(__always)
    mutating func record(_ sighting: BeaconSighting, at slot: Int) {
        var sample = sighting.rssi.map { Double($0) }
        if clamps, let raw = sample { sample = tracked.cold[slot].clamp(raw, maxStep: maxStep) }
        let address = sighting.address.rawValue
        let speed = armaSpeed
        // Every hot-state change in one access (one uniqueness check of the table).
        let (addressChanged, flags) = tracked.hot.update(slot) { beacon in
            let changed = beacon.lastAddress != address
            if changed { beacon.lastAddress = address }
            beacon.count(sighting)
            if let sample {
                beacon.observeInnovation(sample)
                if let speed { beacon.estimate = ARMAFilter.step(from: beacon.filtered, toward: sample, speed: speed) }
            }
            return (changed, beacon.flags)
        }
        if addressChanged { tracked.cold[slot].addresses.record(sighting.address) }
        if speed == nil, let sample {
            tracked.filters[slot].add(sample, at: sighting.timestamp)
            tracked.hot[slot].estimate = tracked.filters[slot].estimate ?? .nan
        }
        if flags & HotBeaconState.confirmed == 0, !confirm(slot: slot, sighting) { return }
        if flags & HotBeaconState.inRegions != 0 { enterRegions(slot: slot, time: sighting.timestamp) }
    }

    /// Counts a sighting of an unconfirmed beacon towards its ``EnterConfirmation``; true once it
    /// is confirmed (by this sighting).
    @inline(never)
    private mutating func confirm(slot: Int, _ sighting: BeaconSighting) -> Bool {
        let rule = configuration.enter
        if let floor = rule.minimumRSSI {
            guard let rssi = sighting.rssi, Double(rssi) >= floor else { return false }
        }
        let t = sighting.timestamp.nanosecondsSinceEpoch
        guard
            tracked.cold[slot].countTowardsConfirmation(
                at: t, window: enterWindowNanoseconds, needed: rule.minimumSightings)
        else { return false }
        tracked.hot[slot].flags |= HotBeaconState.confirmed
        return true
    }

    private mutating func track(_ sighting: BeaconSighting) {
        guard tracked.count < configuration.maxTracked else {
            refusedBeacons += 1
            return
        }
        let rssi = sighting.rssi ?? .min
        if newcomers.isFull {
            guard displaceWeakestNewcomer(for: rssi) else {
                refusedNewcomers += 1
                return
            }
        }
        let id = sighting.id
        newcomers.admit(id, rssi: rssi)
        let mask = regionMask(of: id)
        let slot = tracked.append(
            HotBeaconState(
                id: id, time: sighting.timestamp, address: sighting.address, inRegions: mask != 0,
                confirmed: configuration.enter.confirmsAtOnce),
            ColdBeaconState(id: id, time: sighting.timestamp, address: sighting.address, regionMask: mask),
            filter: configuration.filter.makeFilter)
        record(sighting, at: slot)
    }

    /// Past the cycle's cap: evicts the weakest newcomer of the cycle that has entered no region,
    /// if a beacon heard at `rssi` is louder; true when it made room. Runs only under a flood.
    @inline(never)
    private mutating func displaceWeakestNewcomer(for rssi: Int8) -> Bool {
        guard let w = newcomers.weakest(quieterThan: rssi), let slot = tracked.slot(of: newcomers[w].id),
            tracked.cold[slot].insideMask == 0
        else { return false }
        evict(slot: slot)
        newcomers.remove(at: w)
        refusedNewcomers += 1
        return true
    }

    private func regionMask(of id: BeaconID) -> UInt64 {
        var mask: UInt64 = 0
        for (i, region) in configuration.regions.enumerated() where region.contains(id) { mask |= 1 << UInt64(i) }
        return mask
    }

    private mutating func enterRegions(slot: Int, time: Timestamp) {
        let mask = tracked.cold[slot].regionMask
        var entering = mask & ~tracked.cold[slot].insideMask
        guard entering != 0 else { return }
        tracked.cold[slot].insideMask = mask
        let id = tracked.cold[slot].id
        while entering != 0 {
            let i = entering.trailingZeroBitCount
            entering &= entering - 1
            enterEvents.append(
                RegionEvent(
                    kind: .enter, regionID: configuration.regions[i].id,
                    beacon: id, time: time))
        }
    }
}
