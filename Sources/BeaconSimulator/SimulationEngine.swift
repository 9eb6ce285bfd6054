import BeaconCore

/// The synchronous core of the simulator for one gateway: a time-ordered schedule of every
/// beacon's advertising events, the radio model applied to each, and the resulting HCI
/// advertising report events appended to a `PacketBatch`.
///
/// It allocates nothing per event: the schedule is a heap with one entry per beacon, and each
/// beacon's report event is a pre-encoded template whose RSSI byte is patched per report.
/// ``Simulation`` drives it asynchronously; benchmarks and tests can call ``fill(_:until:maxPackets:)`` directly.
public struct SimulationEngine {
    /// The scenario being run.
    public let scenario: Scenario
    /// The gateway whose receptions this engine produces.
    public let gateway: GatewaySpec
    /// Counters so far.
    public private(set) var statistics = SimulationStatistics()

    var random: SplitMix64
    var queue: EventQueue
    let frames: FrameTemplates
    // Per-beacon state, structure-of-arrays.
    let intervals: [Int64]
    let fixedMeans: [Double]
    let carriers: [Int32]
    /// The gateway's floor (index into the scenario's floors), -1 without floors.
    let gatewayFloor: Int
    let cutoffs: [Double]
    var advertisementCounts: [UInt32]
    // The last audible event, held back until no later event can overlap it (collisions).
    var pendingBeacon: Int32 = -1
    var pendingTime: Int64 = 0
    var pendingMean: Double = 0
    var pendingCollided = false
    var lastReportTime: Int64 = .min

    let startNs: Int64
    let endNs: Int64
    let airtimeNs: Int64
    let reportDelayNs: Int64
    let packetLoss: Double
    /// This gateway's shadowing of a place (`nil` without it).
    let placeShadowing: ShadowingField?
    let sensitivity: Double
    let spacingNs: Int64
    let scanIntervalNs: Int64
    let scanWindowNs: Int64

    /// Creates the engine for the gateway at `gatewayIndex`, drawing from `seed` (each gateway
    /// gets its own stream).
    public init(scenario: Scenario, gatewayIndex: Int = 0, seed: UInt64? = nil) {
        self.scenario = scenario
        gateway = scenario.gateways[gatewayIndex]
        random = SplitMix64.derived(seed: seed ?? scenario.seed, stream: UInt64(gatewayIndex))
        frames = FrameTemplates(beacons: scenario.beacons, format: gateway.reportKind)
        let radio = scenario.radio
        let margin = 3 * (radio.shadowingSigma + radio.placeShadowingSigma) + (radio.fading == .none ? 0 : 15)
        let field =
            radio.placeShadowingSigma > 0
            ? ShadowingField(
                sigma: radio.placeShadowingSigma, correlationLength: radio.placeShadowingLength, seed: seed ?? scenario.seed,
                stream: 0x5AD0 &+ UInt64(gatewayIndex))
            : nil
        placeShadowing = field
        intervals = scenario.beacons.map { $0.interval.nanoseconds }
        cutoffs = scenario.beacons.map { _ in Double(radio.sensitivity) - margin }
        carriers = scenario.beacons.map {
            if case .carried(let walker) = $0.placement { return Int32(walker) }
            return -1
        }
        let gatewayPosition = gateway.position
        let floor = scenario.floorIndex(at: gatewayPosition)
        gatewayFloor = floor
        fixedMeans = scenario.beacons.map {
            guard case .fixed(let point) = $0.placement else { return .nan }
            return radio.meanRSSI(measuredPower: $0.measuredPower, distance: point.distance(to: gatewayPosition))
                - radio.floorLoss * Double(abs(scenario.floorIndex(at: point) - floor))
                + (field?.value(x: point.x, y: point.y) ?? 0)
        }
        advertisementCounts = Array(repeating: 0, count: scenario.beacons.count)
        startNs = scenario.start.nanosecondsSinceEpoch
        endNs = scenario.end.nanosecondsSinceEpoch
        airtimeNs = radio.collisions ? radio.airtime.nanoseconds : 0
        reportDelayNs = radio.airtime.nanoseconds
        packetLoss = radio.packetLoss
        sensitivity = Double(radio.sensitivity)
        spacingNs = radio.channelSpacing.nanoseconds
        scanIntervalNs = gateway.scan.interval.nanoseconds
        scanWindowNs = gateway.scan.window.nanoseconds
        queue = EventQueue(capacity: scenario.beacons.count, origin: startNs)
        for (index, beacon) in scenario.beacons.enumerated() {
            // A gateway's own advertisements never reach its scanner (the controller does not
            // report itself): the beacon is never scheduled here.
            if beacon.gateway == gatewayIndex { continue }
            var first = startNs
            if case .carried(let walker) = beacon.placement {
                first += scenario.walkers[walker].start.nanoseconds
            }
            let phase = Int64(random.nextUnit() * Double(intervals[index]))
            queue.push(time: first + phase, beacon: Int32(index))
        }
    }

    /// True once every event up to the scenario's end has been emitted.
    public private(set) var isFinished = false

    /// The virtual time up to which events have been generated.
    public private(set) var virtualTime: Timestamp = .epoch

    /// Appends the reports of every advertising event before `limit` (and before the scenario's
    /// end) to `batch`, stopping early once the batch holds `maxPackets` packets.
    /// - Returns: false once the simulation is finished.
    @discardableResult
    public mutating func fill(_ batch: inout PacketBatch, until limit: Timestamp, maxPackets: Int = .max) -> Bool {
        let limitNs = min(limit.nanosecondsSinceEpoch, endNs)
        while batch.count < maxPackets, let next = queue.peek() {
            // Nothing later can overlap the held-back event once the next one is past its airtime.
            if pendingBeacon >= 0, next.time >= pendingTime &+ airtimeNs { emitPending(into: &batch) }
            guard next.time < limitNs else { break }
            step(next, into: &batch)
        }
        let nextTime = queue.peek()?.time ?? .max
        if nextTime >= endNs, pendingBeacon >= 0, batch.count < maxPackets {
            emitPending(into: &batch)
        }
        isFinished = pendingBeacon < 0 && nextTime >= endNs
        virtualTime = Timestamp(nanosecondsSinceEpoch: min(limitNs, nextTime))
        return !isFinished
    }

    /// Empties `batch` and fills it with the next span of a run cut into spans: the events before
    /// `horizon + span` (at most `end`), or the first `maxPackets` of them, in which case the next
    /// span starts where the engine stopped. Advances `horizon` to where this span ends.
    /// - Returns: false once the simulation is finished.
    @discardableResult
    public mutating func fillNextSpan(
        _ batch: inout PacketBatch, horizon: inout Timestamp, span: Duration, end: Timestamp, maxPackets: Int
    ) -> Bool {
        horizon = min(horizon + span, end)
        batch.removeAll()
        let more = fill(&batch, until: horizon, maxPackets: maxPackets)
        if batch.count >= maxPackets { horizon = virtualTime }
        return more
    }

    /// Handles the earliest scheduled event: works out its mean power, applies collisions,
    /// and reschedules the beacon.
    @inline(__always)
    mutating func step(_ event: EventQueue.Entry, into batch: inout PacketBatch) {
        let beacon = Int(event.beacon)
        let time = event.time
        var mean = fixedMeans[beacon]
        let carrier = carriers[beacon]
        if carrier >= 0 {
            let offset = Duration.nanoseconds(time &- startNs)
            guard let position = scenario.walkers[Int(carrier)].position(atOffset: offset) else {
                queue.removeTop() // the walker has left: the beacon falls silent for good
                return
            }
            let spec = scenario.beacons[beacon]
            mean = scenario.radio.meanRSSI(
                measuredPower: spec.measuredPower,
                distance: position.distance(to: gateway.position))
            if gatewayFloor >= 0 {
                mean -= scenario.radio.floorLoss * Double(abs(scenario.floorIndex(at: position) - gatewayFloor))
            }
            if let placeShadowing { mean += placeShadowing.value(x: position.x, y: position.y) }
        }
        // advInterval + advDelay, advDelay uniform in 0…10 ms.
        let delay = Int64(truncatingIfNeeded: random.next().multipliedFullWidth(by: 10_000_001).high)
        queue.replaceTop(time: time &+ intervals[beacon] &+ delay)
        statistics.advertisements += 1
        advertisementCounts[beacon] &+= 1
        guard mean >= cutoffs[beacon] else {
            statistics.outOfRange += 1
            return
        }
        var collided = false
        if pendingBeacon >= 0 {
            if time &- pendingTime < airtimeNs {
                pendingCollided = true
                collided = true
            }
            emitPending(into: &batch)
        }
        pendingBeacon = event.beacon
        pendingTime = time
        pendingMean = mean
        pendingCollided = collided
    }

    /// Emits the held-back advertising event: the scanner's channel and window, loss, RSSI.
    mutating func emitPending(into batch: inout PacketBatch) {
        let beacon = Int(pendingBeacon)
        pendingBeacon = -1
        var heard = false
        // Which channel the scanner is on, and whether it is inside its window, at each PDU.
        var scanIndex: Int64 = 0
        var intoInterval = pendingTime &- startNs
        if intoInterval >= 0 {
            scanIndex = intoInterval / scanIntervalNs
            intoInterval -= scanIndex &* scanIntervalNs
        }
        for channel in 0..<Int64(3) {
            let pduTime = pendingTime &+ channel &* spacingNs
            if channel > 0 {
                intoInterval &+= spacingNs
                while intoInterval >= scanIntervalNs {
                    intoInterval -= scanIntervalNs
                    scanIndex += 1
                }
            }
            guard intoInterval >= 0, scanIndex % 3 == channel, intoInterval < scanWindowNs else { continue }
            heard = true
            if pendingCollided {
                statistics.lostToCollisions += 1
                continue
            }
            if packetLoss > 0, random.nextUnit() < packetLoss {
                statistics.lostToPacketLoss += 1
                continue
            }
            let rssi = (scenario.radio.sampleRSSI(mean: pendingMean, using: &random) + gateway.rssiBias).rounded()
            guard rssi >= sensitivity else {
                statistics.belowSensitivity += 1
                continue
            }
            let reportTime = max(pduTime &+ reportDelayNs, lastReportTime)
            lastReportTime = reportTime
            let value = Int8(max(-127, min(20, rssi)))
            frames.append(
                beacon: beacon, rssi: value, advertisementCount: advertisementCounts[beacon],
                uptimeNanoseconds: pendingTime &- startNs,
                timestamp: Timestamp(nanosecondsSinceEpoch: reportTime), to: &batch)
            statistics.reports += 1
        }
        if !heard { statistics.missedByScanner += 1 }
    }
}
