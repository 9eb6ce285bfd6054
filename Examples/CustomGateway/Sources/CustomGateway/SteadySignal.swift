import BeaconCore

/// ``SteadySignalStrategy``'s memory of one beacon: since when its signal has been steady, and
/// around which level. `Codable`: the base class saves it with the daemon's state, so a restart
/// loses no stretch.
struct SteadySignal: Codable {
    /// Start of the current steady stretch.
    var since: Timestamp?
    /// The filtered RSSI the stretch started at (dBm).
    var reference: Double = 0
    /// Whether the latest cycle was part of a steady stretch.
    var steadyNow = false
}
