import BeaconCore

/// Everything the ranging loop needs, fixed at construction.
public struct RangingConfiguration: Sendable {
    /// Length of a ranging cycle: one `RangingUpdate` per cycle. Default 1 s. Cycles are
    /// aligned to multiples of this length since the Unix epoch.
    public var cycleLength: Duration
    /// A beacon unseen for less than this is still listed (`seenThisCycle == false`). Default 3 s.
    public var missedScanGrace: Duration
    /// A beacon unseen for this long is dropped and listed once in `evicted`. Default 30 s.
    /// Eviction waits for the beacon's region exits, so the effective retention is at least the
    /// longest region exit timeout.
    public var retention: Duration
    /// The RSSI filter. Default: ``RSSIFilterKind/arma(_:)`` with speed 0.1, the best accuracy per
    /// unit of lag and memory in the evaluation (Docs/Ranging.md).
    public var filter: RSSIFilterKind
    /// Largest RSSI change per sample (dB) before the filter, or `nil` for none. Default none.
    public var spikeClamp: Double?
    /// The distance model. Default: log-distance with ``LogDistanceModel/defaultExponent``.
    public var distanceModel: DistanceModelKind
    /// Measured power (RSSI at 1 m, dBm) for beacons whose frames carry none. Default −59.
    public var defaultMeasuredPower: Int8
    /// Per-beacon overrides of measured power and path-loss exponent.
    public var calibrations: [BeaconID: BeaconCalibration]
    /// Proximity thresholds and hysteresis.
    public var proximity: ProximityBands
    /// Regions whose entries and exits are reported (at most ``maxRegions``).
    public var regions: [BeaconRegion]
    /// Exit timeout of regions that set none. Default 10 s (AltBeacon's region exit period).
    public var defaultExitTimeout: Duration
    /// The most beacons tracked at once: a bound on memory (about 500 bytes per beacon, see
    /// Docs/Ranging.md) against floods of spoofed identities. At the cap a new beacon is refused
    /// (counted in ``RangingLoop/refusedBeacons``) and, at the end of the cycle, the
    /// ``capEvictionShare`` least recently seen beacons are evicted (listed in `evicted`,
    /// counted in ``RangingLoop/cappedEvictions``) to make room. Default 200,000 (about 100 MB).
    public var maxTracked: Int
    /// What a newly heard beacon needs before it is listed and enters regions (default: one
    /// sighting). See ``EnterConfirmation``.
    public var enter: EnterConfirmation
    /// How many beacons not tracked yet one cycle may bring in. Past it, a new beacon is taken
    /// only if it is heard louder than the weakest newcomer of the cycle, which it displaces (the
    /// strongest are kept); the rest are refused and counted (``RangingLoop/refusedNewcomers``):
    /// a flood of spoofed identities grows the tables by at most this many a cycle. Default
    /// 1,000; beacons already tracked are never affected.
    public var maxNewPerCycle: Int
    /// The default of ``maxNewPerCycle``.
    public static let defaultMaxNewPerCycle = 1000

    /// The default of ``maxTracked``.
    public static let defaultMaxTracked = 200_000
    /// The share of ``maxTracked`` evicted at the end of a cycle that ends at the cap: 1/16.
    public static let capEvictionShare = 16

    /// The largest number of regions (one bit each in a beacon's membership mask).
    public static let maxRegions = 64
    /// Distinct addresses remembered per beacon.
    public static let addressHistoryCapacity = AddressHistory.capacity

    /// A configuration; every parameter has the documented default.
    public init(
        cycleLength: Duration = .seconds(1), missedScanGrace: Duration = .seconds(3),
        retention: Duration = .seconds(30), filter: RSSIFilterKind = .arma(.init()),
        spikeClamp: Double? = nil,
        distanceModel: DistanceModelKind = .logDistance(LogDistanceModel()),
        defaultMeasuredPower: Int8 = -59, calibrations: [BeaconID: BeaconCalibration] = [:],
        proximity: ProximityBands = ProximityBands(), regions: [BeaconRegion] = [],
        defaultExitTimeout: Duration = .seconds(10), maxTracked: Int = defaultMaxTracked,
        enter: EnterConfirmation = EnterConfirmation(), maxNewPerCycle: Int = defaultMaxNewPerCycle
    ) {
        self.enter = enter
        self.maxNewPerCycle = maxNewPerCycle
        self.cycleLength = cycleLength
        self.missedScanGrace = missedScanGrace
        self.retention = retention
        self.filter = filter
        self.spikeClamp = spikeClamp
        self.distanceModel = distanceModel
        self.defaultMeasuredPower = defaultMeasuredPower
        self.calibrations = calibrations
        self.proximity = proximity
        self.regions = regions
        self.defaultExitTimeout = defaultExitTimeout
        self.maxTracked = maxTracked
    }

    /// Throws when a value cannot work, saying which and what to do.
    public func validate() throws(RangingConfigurationError) {
        guard cycleLength > .zero else { throw .nonPositiveCycle(cycleLength) }
        guard missedScanGrace >= .zero, retention >= missedScanGrace else {
            throw .retentionShorterThanGrace(grace: missedScanGrace, retention: retention)
        }
        guard regions.count <= Self.maxRegions else { throw .tooManyRegions(regions.count) }
        guard (1...255).contains(enter.minimumSightings), enter.window > .zero,
            enter.minimumRSSI.map({ (-127...20).contains($0) }) ?? true
        else {
            throw .invalidValue(
                "ranging.enter needs minSightings from 1 to 255, a positive window and a minRSSI from -127 to 20 dBm")
        }
        var ids = Set<String>()
        for region in regions {
            guard ids.insert(region.id).inserted else { throw .duplicateRegion(region.id) }
            if let t = region.exitTimeout, t < .zero {
                throw .invalidValue("region '\(region.id)' exit timeout \(t) is negative")
            }
        }
        guard maxTracked > 0 else { throw .invalidValue("maxTracked \(maxTracked) must be at least 1") }
        guard maxNewPerCycle > 0 else { throw .invalidValue("maxNewPerCycle \(maxNewPerCycle) must be at least 1") }
        guard defaultExitTimeout >= .zero else { throw .invalidValue("default exit timeout \(defaultExitTimeout) is negative") }
        if let clamp = spikeClamp, !(clamp > 0) { throw .invalidFilter("spike clamp \(clamp) dB must be positive") }
        guard proximity.immediateBelow > 0, proximity.nearBelow > proximity.immediateBelow,
            (0..<1).contains(proximity.enterMargin), proximity.leaveMargin >= 0
        else {
            throw .invalidValue("proximity bands need 0 < immediate < near and margins in [0, 1)")
        }
        try validateFilter()
    }

    private func validateFilter() throws(RangingConfigurationError) {
        switch filter {
        case .runningAverage(let c):
            guard c.window > .zero, c.maxSamples > 0 else {
                throw .invalidFilter("running average needs a positive window and maxSamples")
            }
        case .arma(let c):
            guard c.speed > 0, c.speed <= 1 else { throw .invalidFilter("ARMA speed \(c.speed) must be in (0, 1]") }
        case .kalman(let c):
            guard c.processNoise >= 0, c.measurementNoise > 0 else { throw .invalidFilter("Kalman needs Q ≥ 0 and R > 0") }
        case .oneEuro(let c):
            guard c.minCutoff > 0, c.beta >= 0, c.derivativeCutoff > 0 else {
                throw .invalidFilter("1€ needs cutoffs > 0 and β ≥ 0")
            }
        case .percentile(let c):
            guard c.percentile > 0, c.percentile <= 1, c.minSamples >= 0, c.maxSamples > 0, c.minSamples <= c.maxSamples else {
                throw .invalidFilter("percentile needs p in (0, 1] and 0 ≤ minSamples ≤ maxSamples")
            }
        }
    }
}
