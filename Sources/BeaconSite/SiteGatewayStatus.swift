import BeaconCore

/// Whether a gateway of a site is reporting, as its hub sees it.
///
/// A gateway is *offline* once no report has come from it for
/// `SiteFusionConfiguration.gatewayOfflineAfter` (by default the longer of 10 s and three times the
/// staleness), and *online* again at its next report. While every gateway of a room is offline,
/// that room's silence is not taken as absence: a beacon in it becomes unknown instead of being
/// moved by the silence.
public struct SiteGatewayStatus: Hashable, Sendable {
    /// The gateway's id.
    public var gateway: String
    /// Whether it is reporting.
    public var online: Bool
    /// The hub time of its latest report; `nil` before any.
    public var lastReport: Timestamp?
    /// When it went online or offline (hub time): the start of the current state.
    public var since: Timestamp

    /// Creates a status.
    public init(gateway: String, online: Bool, lastReport: Timestamp?, since: Timestamp) {
        self.gateway = gateway
        self.online = online
        self.lastReport = lastReport
        self.since = since
    }
}
