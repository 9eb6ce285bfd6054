import BeaconCore

/// Everything the loop keeps about one beacon between cycles: a fixed-size value (windowed
/// filters keep their sample buffers in a box allocated once when tracking starts).
struct TrackedBeacon: Sendable {
    // Fields touched by every sample come first (they share as few cache lines as possible).
    // The order packs the hot part into 128 bytes (BeaconID is 28 bytes, then the Float).
    let id: BeaconID
    /// Exponentially weighted mean of squared innovations (sample − estimate before it), dB².
    /// Starts at 4 dB² (σ = 2 dB), a typical RSSI spread, until samples say otherwise.
    var innovationVariance: Float = 4
    var lastSeen: Timestamp
    var filter: AnyRSSIFilter
    // This cycle's raw samples.
    var cycleSamples: Int32 = 0
    var cycleRSSISum: Int32 = 0
    var cycleRSSICount: Int32 = 0
    /// The previous sample after the spike clamp (NaN before the first).
    var clampedPrevious = Double.nan
    var cycleLastRSSI: Int8?
    /// Measured power from the latest frame that carried one.
    var frameMeasuredPower: Int8?
    var proximity: Proximity = .unknown
    /// The latest address; the history below is only touched when it changes.
    var lastAddress: BluetoothAddress
    /// Regions this beacon belongs to (bit i = configuration.regions[i]).
    let regionMask: UInt64
    /// Regions this beacon is currently inside.
    var insideMask: UInt64 = 0
    // Cold fields.
    var firstSeen: Timestamp
    var addresses = AddressHistory()

    init(id: BeaconID, filter: AnyRSSIFilter, time: Timestamp, address: BluetoothAddress, regionMask: UInt64) {
        self.id = id
        self.lastAddress = address
        addresses.record(address)
        self.filter = filter
        self.firstSeen = time
        self.lastSeen = time
        self.regionMask = regionMask
    }

    /// Weight of a new innovation in ``innovationVariance``.
    static let varianceWeight: Float = 0.1

    @inline(__always)
    mutating func record(_ sighting: BeaconSighting, maxStep: Double) {
        if sighting.address != lastAddress {
            lastAddress = sighting.address
            addresses.record(sighting.address)
        }
        if sighting.timestamp > lastSeen { lastSeen = sighting.timestamp }
        if let power = sighting.measuredPower { frameMeasuredPower = power }
        cycleSamples &+= 1
        guard let rssi = sighting.rssi else { return }
        cycleRSSICount &+= 1
        cycleRSSISum &+= Int32(rssi)
        cycleLastRSSI = rssi
        var sample = Double(rssi)
        if !clampedPrevious.isNaN {
            sample = min(clampedPrevious + maxStep, max(clampedPrevious - maxStep, sample))
        }
        clampedPrevious = sample
        if let before = filter.estimate {
            let innovation = Float(sample - before)
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
