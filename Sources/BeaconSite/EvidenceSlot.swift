/// One gateway's record of one beacon for one hub cycle, as the hub keeps it (32 bytes).
///
/// A hub keeps four per beacon and gateway, indexed by the cycle's number modulo 4, so records
/// of the cycles still open (lateness) and of the last closed one live side by side.
struct EvidenceSlot {
    /// The hub cycle (its end, in cycle numbers since the epoch) the record belongs to; -1: empty.
    var cycle: Int64 = -1
    /// Filtered RSSI with the gateway's offset applied, dBm; NaN: none.
    var rssi: Float = .nan
    /// The cycle's mean RSSI with the gateway's offset applied, dBm; NaN: none.
    var mean: Float = .nan
    /// Distance, metres; NaN: none.
    var distance: Float = .nan
    /// Distance uncertainty, metres; NaN: none.
    var accuracy: Float = .nan
    /// Sightings during the gateway's cycle.
    var samples: UInt16 = 0
    /// Whether the gateway heard the beacon during its cycle.
    var seen = false

    static let perGateway = 4
    static let mask: Int64 = 3
}
