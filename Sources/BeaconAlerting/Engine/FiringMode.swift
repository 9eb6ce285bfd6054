/// Which strategy firings count, per alert definition and beacon (``AlertKey``).
///
/// | mode | a firing while one is pending | a firing after a delivery |
/// |---|---|---|
/// | `latest-once` (default) | replaces it: the pending one is cancelled ("superseded") and the alert is scheduled again from the new firing | ignored, for good: the alert is delivered at most once per beacon |
/// | `latest` | replaces it, as above | schedules again (subject to `cooldown`) |
/// | `first` | ignored: the pending one keeps its time | ignored, for good |
///
/// With `first`, only the first *accepted* firing ever counts, even if its alert is later
/// cancelled or dropped; with `latest-once`, a cancelled or dropped alert (never delivered)
/// can be scheduled again by a later firing. Ignored firings produce no event.
public enum FiringMode: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The latest firing counts; delivered at most once.
    case latestOnce = "latest-once"
    /// The latest firing counts; delivered again on every later firing.
    case latest
    /// Only the first firing counts.
    case first

    /// Reads `latest-once`, `latest` or `first`.
    public init(parsing text: String) throws(AlertPolicyError) {
        guard let mode = FiringMode(rawValue: text) else {
            throw .unknownValue(option: "firing", value: text, accepted: Self.allCases.map(\.rawValue))
        }
        self = mode
    }

    /// The configuration spelling.
    public var description: String { rawValue }
}
