/// One gateway's contribution to a position estimate: where it is, how far it puts the beacon,
/// how sure it is, and how strongly it hears it.
struct PositionEvidence {
    var x: Double
    var y: Double
    var z: Double
    var distance: Double
    var sigma: Double
    var rssi: Double
}
