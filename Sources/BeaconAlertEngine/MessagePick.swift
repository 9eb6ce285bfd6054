/// Which of an alert's `messages` an event says (`pick`).
public enum MessagePick: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Each delivery of the alert for the beacon (and each reminder) says the next, round the list.
    case inTurn = "in-turn"
    /// A pick at random, the same for the same delivery (drawn from the alert, the beacon, the due
    /// time and the attempt: a replay, or a restart, says what the first run said).
    case random
    /// One message a day, the next each day (the day in the alert's window time zone, else UTC):
    /// "a different message every day".
    case byDay = "by-day"

    /// Reads `in-turn`, `random` or `by-day`.
    public init(parsing text: String) throws(AlertPolicyError) {
        guard let value = MessagePick(rawValue: text) else {
            throw .unknownValue(option: "pick", value: text, accepted: Self.allCases.map(\.rawValue))
        }
        self = value
    }

    /// The configuration's spelling.
    public var description: String { rawValue }
}
