import BeaconConfiguration
import BeaconCore

/// How long the daemon keeps what it writes about beacons and the people who carry them
/// (`retention:`). Each limit is a duration, or `forever`; a limit left out has its default.
///
///     retention:
///       history: 90d        # alert histories idle this long (nothing pending, no cooldown or suppression in force)
///       deadLetters: 30d    # dead letters whose event is older than this
///       presence: 7d        # a hub's presence lines (hub.presence): the file rotates to FILE.1
///       recordings: 7d      # a radio's recording (source.record): the file rotates to FILE.1
///
/// The files rotate every half of their limit and keep one older part, so a line or packet is
/// kept at least half the limit and never longer than the limit. `Docs/Devices.md` says what
/// is stored where.
public struct RetentionSettings: Hashable, Sendable {
    /// How long an alert history is kept once nothing rests on it; `nil`: for good.
    public var history: Duration?
    /// How long a dead letter is kept, counted from its event's time; `nil`: until retried or dropped.
    public var deadLetters: Duration?
    /// How long a hub's presence lines are kept; `nil`: the file grows until restarted.
    public var presence: Duration?
    /// How long a radio's recording keeps packets; `nil`: the file grows.
    public var recordings: Duration?

    /// The defaults: histories 90 days, dead letters 30 days, presence lines and recordings 7 days.
    public static let defaults = RetentionSettings(
        history: .seconds(90 * 86_400), deadLetters: .seconds(30 * 86_400), presence: .seconds(7 * 86_400),
        recordings: .seconds(7 * 86_400))

    /// Nothing is ever removed (what a test or a one-off run may want).
    public static let forever = RetentionSettings(history: nil, deadLetters: nil, presence: nil, recordings: nil)

    /// The shortest limit accepted: a limit is a sweep's period apart from being exact.
    public static let shortest = Duration.seconds(60)

    /// Creates settings.
    public init(history: Duration?, deadLetters: Duration?, presence: Duration?, recordings: Duration?) {
        self.history = history
        self.deadLetters = deadLetters
        self.presence = presence
        self.recordings = recordings
    }

    static let keys = ["history", "deadLetters", "presence", "recordings"]

    /// Reads `retention:`, starting from ``defaults``.
    init(node: ConfigNode) throws(ConfigurationError) {
        try node.checkKeys(allowed: Self.keys, in: "retention")
        self = .defaults
        history = try Self.limit(node["history"], default: history)
        deadLetters = try Self.limit(node["deadLetters"], default: deadLetters)
        presence = try Self.limit(node["presence"], default: presence)
        recordings = try Self.limit(node["recordings"], default: recordings)
    }

    private static func limit(_ node: ConfigNode?, default value: Duration?) throws(ConfigurationError) -> Duration? {
        guard let node else { return value }
        if let text = node.scalarText, text.lowercased() == "forever" { return nil }
        guard let text = node.scalarText, let limit = Duration(parsing: text), limit >= shortest else {
            throw node.error(
                "expected a duration of at least 1m (such as 12h, 7d or 90d) or forever, found '\(node.scalarText ?? "a list or mapping")'"
            )
        }
        return limit
    }
}
