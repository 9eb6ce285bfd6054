import BeaconCore

/// A policy option that cannot work as written; the description says what to change.
public enum AlertPolicyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Both `delay` and `notBefore` were given.
    case delayAndNotBefore
    /// A duration option is negative (or zero where that means nothing).
    case invalidDuration(option: String, value: Duration)
    /// An option's value is not one of the accepted ones.
    case unknownValue(option: String, value: String, accepted: [String])
    /// A time of day is not `HH:MM` (or `HH:MM:SS`) between 00:00 and 24:00.
    case invalidTimeOfDay(option: String, value: String)
    /// The window's start and end are the same time.
    case emptyWindow(from: String, to: String)
    /// The window has no day of the week.
    case noWindowDays
    /// The time zone is not an IANA zone name this system knows.
    case unknownTimeZone(String)
    /// Some event kinds have a callback and others none.
    case missingCallbacks([AlertEvent.Kind])
    /// `maxPending` is below 1.
    case invalidMaxPending(Int)
    /// A count option is below its minimum.
    case invalidCount(option: String, value: Int, minimum: Int)
    /// The escalation comes after the last reminder, so it never happens.
    case escalationAfterLastReminder(after: Int, max: Int)
    /// `remind` and `repeat` are both given.
    case remindAndRepeat
    /// `remind` on a `passive` alert, which never reminds.
    case passiveReminds

    /// What is wrong and what to change.
    public var description: String {
        switch self {
        case .delayAndNotBefore:
            "give either 'delay' (an offset from the firing) or 'notBefore' (an absolute time), not both"
        case .invalidDuration(let option, let value):
            "'\(option)' must be a positive duration, got \(value.humanReadable)"
        case .unknownValue(let option, let value, let accepted):
            "'\(option)' cannot be '\(value)'; use one of: \(accepted.joined(separator: ", "))"
        case .invalidTimeOfDay(let option, let value):
            "'\(option)' must be a local time of day as HH:MM (00:00 to 24:00), got '\(value)'"
        case .emptyWindow(let from, let to):
            "the delivery window '\(from)'–'\(to)' is empty; give different 'from' and 'to' times"
        case .noWindowDays:
            "the delivery window has no days; list at least one of mon, tue, wed, thu, fri, sat, sun (or omit 'days' for every day)"
        case .unknownTimeZone(let name):
            "unknown time zone '\(name)'; use an IANA name such as Europe/Paris or UTC"
        case .missingCallbacks(let kinds):
            "no callback for \(kinds.map(\.rawValue).joined(separator: ", ")) events; add 'callback' as a fallback for every kind"
        case .invalidMaxPending(let value):
            "'maxPending' must be at least 1, got \(value)"
        case .invalidCount(let option, let value, let minimum):
            "'\(option)' must be at least \(minimum), got \(value)"
        case .escalationAfterLastReminder(let after, let max):
            "'escalate.after' is \(after) but 'remind.max' allows \(max) reminder(s) after the first delivery, so the escalation would never happen; lower 'after' or raise 'max'"
        case .remindAndRepeat:
            "give either 'repeat' (a schedule that goes on whatever happens) or 'remind' (deliveries again until someone acknowledges), not both"
        case .passiveReminds:
            "a 'passive' alert is never reminded or escalated: remove 'remind' (and 'escalate'), or raise 'priority' to active"
        }
    }
}
