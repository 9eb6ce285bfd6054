/// What an alert does for the beacons already in range when it starts for the first time — a
/// new gateway with no saved state, or an alert its saved state has never heard of
/// (`firstStart`). iNotify's `showOnFirstLaunch`, for beacons.
///
/// With `quiet`, every beacon the alert's first ``window`` hears is *already there*: its
/// firings are ignored (``FiringObstacle/quietAtFirstStart``) until it has gone — until the
/// ranging forgets it (its exit) — and the next visit alerts as usual. For a dwell that began
/// before the start, quiet means the whole visit under way: it does not alert when its dwell is
/// reached, the next visit does. The mark is kept in the alert's state, so a restart during the
/// visit stays quiet; a later start with that state is not a first start.
public enum FirstStart: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Alert for the beacons already in range as for any other (the default).
    case fire
    /// Keep quiet for the beacons already in range until each has gone.
    case quiet

    /// How long after the alert's first cycle a beacon heard counts as already in range: the
    /// ranging hears a beacon advertising once a second within a cycle or two, but not every
    /// beacon in the first one.
    public static let window: Duration = .seconds(10)

    /// Reads `fire` or `quiet`.
    public init(parsing text: String) throws(AlertPolicyError) {
        guard let value = FirstStart(rawValue: text) else {
            throw .unknownValue(option: "firstStart", value: text, accepted: Self.allCases.map(\.rawValue))
        }
        self = value
    }

    /// The configuration spelling.
    public var description: String { rawValue }
}
