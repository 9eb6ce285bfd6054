import BeaconCore

/// Why an answer (acknowledge, dismiss) was not taken. Nothing changed; the message says what
/// to do.
public enum AlertAnswerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is not an instance key.
    case malformedInstance(String)
    /// No delivery of this instance is known (never delivered, or still pending).
    case unknownInstance(AlertInstance)
    /// A later instance of the same alert and beacon was delivered since: only the latest is answered.
    case superseded(AlertInstance, latest: AlertInstance)
    /// The instance already has the other answer; an answer is final.
    case alreadyAnswered(AlertInstance, AlertAnswer)
    /// No delivered alert of the beacon (of that alert, when named) waits for an answer.
    case nothingToAnswer(beacon: BeaconID, alertID: String?)
    /// A cancellation names an instance neither scheduled nor delivered (perhaps cancelled already).
    case notScheduled(AlertInstance)
    /// A cancellation names a scheduled instance that a delivery window has moved since: it is
    /// now `current`.
    case rescheduled(AlertInstance, current: AlertInstance)
    /// A cancellation names a delivered instance with no reminder pending: there is nothing left
    /// to call off (acknowledge or dismiss it instead).
    case nothingToCancel(AlertInstance)

    /// What is wrong and what to do.
    public var description: String {
        switch self {
        case .malformedInstance(let text):
            "'\(text.prefix(200))' is not an alert instance: give the 'instance' of a delivered event, alert|beacon|delivered|due (GET /api/alerts lists them)"
        case .unknownInstance(let instance):
            "no delivered alert '\(instance)': it was never delivered (or not yet); GET /api/alerts lists the delivered ones and their 'instance'"
        case .superseded(let instance, let latest):
            "'\(instance)' was followed by a later delivery of the same alert for the same beacon; answer that one: '\(latest)'"
        case .alreadyAnswered(let instance, let answer):
            "'\(instance)' was already \(answer.kind.rawValue) by \(answer.by) at \(answer.at.rfc3339String); an answer is final"
        case .nothingToAnswer(let beacon, let alertID):
            "no delivered alert\(alertID.map { " '\($0)'" } ?? "") of beacon \(beacon) waits for an answer (never delivered, or already answered)"
        case .notScheduled(let instance):
            "no scheduled or delivered alert '\(instance)' to cancel (already cancelled or delivered, or never scheduled); GET /api/alerts lists the waiting ones and the key to cancel each ('cancel')"
        case .rescheduled(let instance, let current):
            "'\(instance)' was moved by its delivery window since; cancel it as '\(current)'"
        case .nothingToCancel(let instance):
            "'\(instance)' was delivered and has no reminder pending: there is nothing to cancel; acknowledge or dismiss it instead"
        }
    }
}

/// What an answer did: the instance, the answer in force, and whether this request repeated one
/// already taken (a retried request changes nothing and emits nothing).
public struct AlertAnswerReceipt: Hashable, Sendable {
    /// The instance answered.
    public var instance: AlertInstance
    /// The answer in force (the earlier one, when `repeated`).
    public var answer: AlertAnswer
    /// True when the same answer had already been taken.
    public var repeated: Bool
    /// The reminder it stopped, if one was pending (its attempt number).
    public var stoppedReminder: Int?

    /// Creates a receipt.
    public init(instance: AlertInstance, answer: AlertAnswer, repeated: Bool, stoppedReminder: Int? = nil) {
        self.instance = instance
        self.answer = answer
        self.repeated = repeated
        self.stoppedReminder = stoppedReminder
    }
}
