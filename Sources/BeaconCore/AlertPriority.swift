/// How much an alert may interrupt, after the interruption levels of the systems beacond learns
/// from (Critical Moments' `interruptionLevel`): each level passes what the ones below it respect.
///
/// | level | delivery window | cooldown, suppression | reminders |
/// |---|---|---|---|
/// | `passive` | kept | kept | never |
/// | `active` (the default) | kept | kept | as configured |
/// | `time-sensitive` | passed | kept | as configured |
/// | `critical` | passed | passed | as configured |
///
/// Every event carries its alert's level, and the status page puts the higher first.
public enum AlertPriority: String, Hashable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    /// Informational: delivered like any alert, but never reminded or escalated.
    case passive
    /// The default.
    case active
    /// Delivered even while its delivery window is closed.
    case timeSensitive = "time-sensitive"
    /// Delivered even while its delivery window is closed, its cooldown runs or a dismissal
    /// suppressed it.
    case critical

    /// Orders the levels from `passive` to `critical`.
    public static func < (a: AlertPriority, b: AlertPriority) -> Bool { a.rank < b.rank }

    /// Whether an alert of this level is delivered while its delivery window is closed.
    public var passesDeliveryWindow: Bool { self >= .timeSensitive }

    /// Whether an alert of this level fires through its cooldown and a dismissal's suppression.
    public var passesCooldownAndSuppression: Bool { self == .critical }

    /// The configuration's spelling (`time-sensitive`).
    public var description: String { rawValue }

    private var rank: Int {
        switch self {
        case .passive: 0
        case .active: 1
        case .timeSensitive: 2
        case .critical: 3
        }
    }
}
