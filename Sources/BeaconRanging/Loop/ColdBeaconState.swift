import BeaconCore

/// The part of a tracked beacon's state that an advertisement rarely touches: its identity as a
/// value, first-seen time, region membership, address history, proximity band and the spike
/// clamp's memory. Read at cycle end; per advertisement only when the address changes, the
/// beacon is in a region or the clamp is on. (A filter other than ARMA lives in a third array,
/// ``TrackedBeaconTable/filters``, empty when the filter is ARMA, as by default.)
struct ColdBeaconState: Sendable {
    let id: BeaconID
    var firstSeen: Timestamp
    /// Regions this beacon belongs to (bit i = configuration.regions[i]).
    let regionMask: UInt64
    /// Regions this beacon is currently inside.
    var insideMask: UInt64 = 0
    /// The previous sample after the spike clamp (NaN before the first).
    var clampedPrevious = Double.nan
    var proximity: Proximity = .unknown
    /// Sightings towards the enter confirmation so far (while not confirmed).
    var pendingSightings: UInt8 = 0
    /// When the first of them was (ns).
    var pendingSince: Int64 = 0
    var addresses = AddressHistory()

    init(id: BeaconID, time: Timestamp, address: BluetoothAddress, regionMask: UInt64) {
        self.id = id
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

    /// Counts a sighting at `t` (ns) towards the enter confirmation: true when it is the
    /// `needed`-th within `window` ns of the first one counted (the count then starts again). A
    /// sighting past the window starts a new count with itself.
    mutating func countTowardsConfirmation(at t: Int64, window: Int64, needed: Int) -> Bool {
        if pendingSightings == 0 || t &- pendingSince > window {
            pendingSince = t
            pendingSightings = 0
        }
        pendingSightings &+= 1
        guard Int(pendingSightings) >= needed else { return false }
        pendingSightings = 0
        return true
    }
}
