import BeaconCore

/// A gateway report on its way to a hub: as received from the broker, or as values (a simulated
/// site in one process skips the encoding).
public enum GatewayReportMessage: Sendable {
    /// A report's bytes (either format) and when the hub received it (`nil`: gateway and hub
    /// share a clock, as in replay).
    case encoded([UInt8], receivedAt: Timestamp?)
    /// A report as values.
    case decoded(GatewayReportHeader, [GatewayRecord])
}
