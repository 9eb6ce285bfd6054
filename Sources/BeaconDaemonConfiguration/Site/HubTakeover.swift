/// Hot standby for a hub's share (`hub: {takeover: {id: hub-a}}`): every hub of the share with a
/// takeover id fuses the same reports and decides the same alerts, and one of them — elected on
/// the broker — delivers them; when it dies, another takes over. See Docs/Site.md, "Hub takeover".
public struct HubTakeover: Hashable, Sendable {
    /// This hub's id among the hubs of its share (a topic level); the smallest id wins a tie.
    public var id: String
    /// How long a hub waits after connecting before it may take over (the retained statuses of
    /// the other hubs arrive in this time).
    public var settle: Duration
    /// How far apart two hubs' times for the same alert event may be and still be the same event
    /// (30 s: a hub that restarted, or missed reports while the broker was away, decides a dwell
    /// a few seconds after the other; the site soak saw 6 s). At a takeover, events of one alert
    /// for one beacon closer than this count as one.
    public var matchWindow: Duration

    /// Creates the settings.
    public init(id: String, settle: Duration = .seconds(2), matchWindow: Duration = .seconds(30)) {
        self.id = id
        self.settle = settle
        self.matchWindow = matchWindow
    }
}
