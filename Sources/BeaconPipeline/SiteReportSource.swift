import BeaconCore
import BeaconSiteReport

/// Gateways' reports from somewhere other than a broker — a simulated site, its gateways in this
/// process — for a hub pipeline to fuse (`beacond simulate SITE --serve`).
///
/// The source runs on a time of its own: it hands over each batch of reports, and says how far
/// its time has come, so that the hub's cycles close while nothing is reported.
public protocol SiteReportSource: Sendable {
    /// A short name for logs and the page (`sim:shop (site)`).
    var name: String { get }

    /// Runs to the source's end: each batch of reports goes to `send`, in time order, and
    /// `advance` is told the time reached; returns at the end, throws when cancelled.
    func run(
        send: @Sendable ([GatewayReportMessage]) async throws -> Void,
        advance: @Sendable (Timestamp) async throws -> Void
    ) async throws
}
