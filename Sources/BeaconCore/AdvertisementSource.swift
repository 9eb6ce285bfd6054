/// Anything that receives BLE advertisements: the BlueZ HCI scanner, the simulator, capture replay.
///
/// Every source delivers the *packets* a controller (or sniffer) gives — HCI event bytes, or
/// link-layer PDUs for sniffer captures — never pre-parsed beacons, so that everything
/// downstream runs the same parser whatever the source. Packets come in ``PacketBatch``es, in
/// reception order, each stamped with its reception time (wall clock for a radio, capture time
/// for replay, virtual time for the simulator).
public protocol AdvertisementSource: Sendable {
    /// A short human-readable name for logs, e.g. `hci0` or `replay:lobby.btsnoop`.
    var name: String { get }

    /// Runs the source until it ends (a capture read to its end, a simulation's duration) or the
    /// calling task is cancelled, calling `deliver` with each batch in order.
    ///
    /// The batch is only lent: `deliver` must copy what it wants to keep. The source awaits
    /// `deliver` before producing more, which gives the pipeline back-pressure. Errors that end
    /// the source are thrown; recoverable ones (a malformed packet) are not.
    func run(deliver: (borrowing PacketBatch) async throws -> Void) async throws
}
