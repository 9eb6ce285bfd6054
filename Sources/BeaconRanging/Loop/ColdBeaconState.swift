import BeaconCore

/// The part of a tracked beacon's state that an advertisement rarely touches: its identity as a
/// value, first-seen time, region membership, address history, proximity band, the spike clamp's
/// memory and any filter other than ARMA (windowed filters keep their sample buffers in a box
/// allocated once when tracking starts). Read at cycle end; per advertisement only when the
/// address changes, the beacon is in a region, the clamp is on or the filter is not ARMA.
struct ColdBeaconState: Sendable {
    let id: BeaconID
    var firstSeen: Timestamp
    /// Regions this beacon belongs to (bit i = configuration.regions[i]).
    let regionMask: UInt64
    /// Regions this beacon is currently inside.
    var insideMask: UInt64 = 0
    /// The previous sample after the spike clamp (NaN before the first).
    var clampedPrevious = Double.nan
    /// The filter, unless the loop runs ARMA inline in ``HotBeaconState/estimate``.
    var filter: AnyRSSIFilter?
    var proximity: Proximity = .unknown
    var addresses = AddressHistory()

    init(id: BeaconID, filter: AnyRSSIFilter?, time: Timestamp, address: BluetoothAddress, regionMask: UInt64) {
        self.id = id
        self.filter = filter
        firstSeen = time
        self.regionMask = regionMask
        addresses.record(address)
    }

    /// `sample` limited to `maxStep` dB from the previous clamped sample, which it becomes.
    mutating func clamp(_ sample: Double, maxStep: Double) -> Double {
        var sample = sample
        if !clampedPrevious.isNaN {
            sample = min(clampedPrevious + maxStep, max(clampedPrevious - maxStep, sample))
        }
        clampedPrevious = sample
        return sample
    }
}
