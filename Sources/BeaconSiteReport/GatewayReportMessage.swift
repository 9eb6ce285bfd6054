import BeaconCore

/// A gateway report on its way to a hub: as received from the broker, or as values (a simulated
/// site in one process skips the encoding).
public enum GatewayReportMessage: Sendable {
    /// A report's bytes (either format), when the hub received it (`nil`: gateway and hub share
    /// a clock, as in replay) and what its topic says (`nil`: it had none).
    case encoded([UInt8], receivedAt: Timestamp?, origin: ReportOrigin? = nil)
    /// A report as values.
    case decoded(GatewayReportHeader, [GatewayRecord])
    /// A message refused before it could be read as a report (a topic that is not the site's, or
    /// a bucket this hub does not take): counted with the fusion's own refusals.
    case refused(ReportRefusal)
}
