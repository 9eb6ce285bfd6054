import BeaconCore

/// How a delivered alert comes back while nobody answers it (`remind:`): the same alert instance
/// is delivered again `every` so long after the last delivery, until it is acknowledged or
/// dismissed, at most `max` times; and, with an ``EscalationPolicy``, to more sinks once it has
/// gone unanswered for long enough.
///
/// Reminders are pending deliveries like any other: they keep to the delivery window (one due
/// while the window is closed waits for it to open, whatever `outsideWindow` says, since a
/// reminder that is dropped would end the series), are kept in the state store, and a restarted
/// engine sends the one that fell due while it was down once, not once per missed period.
public struct ReminderPolicy: Hashable, Sendable {
    /// The time from one delivery of the instance to the next.
    public let every: Duration
    /// The most reminders after the first delivery.
    public let max: Int
    /// Escalation to more sinks, if any.
    public let escalation: EscalationPolicy?

    /// Creates a policy; throws on a period that is not positive, a `max` below 1, or an
    /// escalation that could never happen (`after` beyond the last reminder).
    public init(every: Duration, max: Int = 5, escalation: EscalationPolicy? = nil) throws(AlertPolicyError) {
        guard every > .zero else { throw .invalidDuration(option: "remind.every", value: every) }
        guard max >= 1 else { throw .invalidCount(option: "remind.max", value: max, minimum: 1) }
        if let escalation, escalation.after > max {
            throw .escalationAfterLastReminder(after: escalation.after, max: max)
        }
        self.every = every
        self.max = max
        self.escalation = escalation
    }

    /// The sinks delivery `attempt` (0: the first) is escalated to.
    public func escalation(forAttempt attempt: Int) -> [String] {
        guard let escalation, attempt >= escalation.after else { return [] }
        return escalation.to
    }
}

/// Where an unanswered alert goes once nobody has answered `after` deliveries (`escalate:
/// {after: 3, to: [pager]}`): the fourth delivery and every later one also go to the sinks `to`
/// names. A sink named by an escalation receives that alert's events only when they are escalated.
public struct EscalationPolicy: Hashable, Sendable {
    /// How many deliveries go unanswered before the next is escalated.
    public let after: Int
    /// The ids of the sinks an escalated delivery also goes to.
    public let to: [String]

    /// Creates a policy; throws when `after` is below 1 or `to` names no sink.
    public init(after: Int, to: [String]) throws(AlertPolicyError) {
        guard after >= 1 else { throw .invalidCount(option: "escalate.after", value: after, minimum: 1) }
        guard !to.isEmpty else { throw .unknownValue(option: "escalate.to", value: "[]", accepted: ["a list of sink ids"]) }
        self.after = after
        self.to = to
    }
}
