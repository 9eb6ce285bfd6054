/// Which strategy firings count, per alert definition and beacon (``AlertKey``).
///
/// A strategy fires once per *activation*: when a beacon goes from waiting for action to action
/// done (see `BeaconAlertStrategy`). It fires again only after its reset — the beacon unseen
/// for `maxTimeBeforeReset`, or its condition gone with `resetWhenConditionInvalid`. The firing
/// mode says what the engine does with those firings:
///
/// | mode | a firing while one is pending | a firing after a delivery |
/// |---|---|---|
/// | `every-activation` (default) | replaces it: the pending one is cancelled ("superseded") and the alert is scheduled again from the new firing | schedules again (subject to `cooldown`): each activation is alerted once |
/// | `once-per-beacon` | replaces it, as above | ignored, for good: the alert is delivered at most once per beacon, ever |
/// | `first` | ignored: the pending one keeps its time | ignored, for good |
///
/// With `first`, only the first *accepted* firing ever counts, even if its alert is later
/// cancelled or dropped; with `once-per-beacon`, a cancelled or dropped alert (never delivered)
/// can be scheduled again by a later firing. Ignored firings produce no event. The earlier
/// spellings `latest` (= `every-activation`) and `latest-once` (= `once-per-beacon`) are still
/// accepted.
public enum FiringMode: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Every activation of the strategy counts; the latest replaces a pending one.
    case everyActivation = "every-activation"
    /// The latest firing counts; delivered at most once per beacon, ever.
    case oncePerBeacon = "once-per-beacon"
    /// Only the first firing counts.
    case first

    /// The spellings of earlier versions, still accepted.
    public static let formerSpellings: [String: FiringMode] = ["latest": .everyActivation, "latest-once": .oncePerBeacon]

    /// Reads `every-activation`, `once-per-beacon` or `first` (or a former spelling).
    public init(parsing text: String) throws(AlertPolicyError) {
        guard let mode = FiringMode(rawValue: text) ?? Self.formerSpellings[text] else {
            throw .unknownValue(option: "firing", value: text, accepted: Self.allCases.map(\.rawValue))
        }
        self = mode
    }

    /// The configuration spelling.
    public var description: String { rawValue }
}
