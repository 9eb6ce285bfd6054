import BeaconCore

/// Everything the loop keeps about one beacon between cycles. Fixed size except for the
/// windows of windowed filters, which are allocated once when tracking starts.
struct TrackedBeacon: Sendable {
    let id: BeaconID
    var addresses = AddressHistory()
    var filter: SpikeClampedFilter<AnyRSSIFilter>
    var firstSeen: Timestamp
    var lastSeen: Timestamp
    /// Exponentially weighted mean of squared innovations (sample − estimate before it), dB².
    /// Starts at 4 dB² (σ = 2 dB), a typical RSSI spread, until samples say otherwise.
    var innovationVariance: Double = 4
    // This cycle's raw samples.
    var cycleSamples: Int32 = 0
    var cycleRSSICount: Int32 = 0
    var cycleRSSISum: Int32 = 0
    var cycleLastRSSI: Int8?
    /// Measured power from the latest frame that carried one.
    var frameMeasuredPower: Int8?
    var proximity: Proximity = .unknown
    /// Regions this beacon belongs to (bit i = configuration.regions[i]).
    let regionMask: UInt64
    /// Regions this beacon is currently inside.
    var insideMask: UInt64 = 0

    init(id: BeaconID, filter: SpikeClampedFilter<AnyRSSIFilter>, time: Timestamp, regionMask: UInt64) {
        self.id = id
        self.filter = filter
        self.firstSeen = time
        self.lastSeen = time
        self.regionMask = regionMask
    }

    /// Weight of a new innovation in ``innovationVariance``.
    static let varianceWeight = 0.1

    mutating func record(_ sighting: BeaconSighting) {
        addresses.record(sighting.address)
        if sighting.timestamp > lastSeen { lastSeen = sighting.timestamp }
        if let power = sighting.measuredPower { frameMeasuredPower = power }
        cycleSamples &+= 1
        guard let rssi = sighting.rssi else { return }
        cycleRSSICount &+= 1
        cycleRSSISum &+= Int32(rssi)
        cycleLastRSSI = rssi
        let sample = Double(rssi)
        if let before = filter.estimate {
            let innovation = sample - before
            innovationVariance += Self.varianceWeight * (innovation * innovation - innovationVariance)
        }
        filter.add(sample, at: sighting.timestamp)
    }

    mutating func startCycle() {
        cycleSamples = 0
        cycleRSSICount = 0
        cycleRSSISum = 0
        cycleLastRSSI = nil
    }
}
