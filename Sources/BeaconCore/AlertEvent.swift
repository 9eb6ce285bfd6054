/// Something that happened to an alert: the unit every sink delivers.
public struct AlertEvent: Hashable, Sendable {
    /// The lifecycle step.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Scheduled (a strategy fired and the alert awaits its delivery time).
        case created
        /// Delivered to the user.
        case delivered
        /// Cancelled before delivery.
        case cancelled
        /// Could not be scheduled or delivered; `messages` says why.
        case error
        /// A person (or a system) saw a delivered alert and took it: its reminders stop.
        case acknowledged
        /// A person (or a system) set a delivered alert aside: its reminders stop, and the alert
        /// may be suppressed for the beacon for a while or for good.
        case dismissed
    }

    public var kind: Kind
    /// The alert definition's id from configuration.
    public var alertID: String
    /// The beacon the alert is about.
    public var beacon: BeaconID
    /// The key of the strategy that fired.
    public var strategy: String
    /// When the event happened (capture, virtual or wall-clock time).
    public var time: Timestamp
    // swift-format-ignore: UseShorthandTypeNames
    /// When the alert is (or was) due, if scheduled.
    public var scheduledFor: Optional<Timestamp>
    /// The alert's content.
    public var content: AlertContent
    /// Human-readable messages (errors, reasons for deferral or cancellation).
    public var messages: [String]
    /// Which delivery of the alert instance this is: 0 for the first, 1… for its reminders.
    public var attempt: Int
    /// The sinks this delivery is escalated to, beyond the usual ones (the alert's `escalate.to`
    /// once it has gone unanswered long enough); empty otherwise.
    public var escalatedTo: [String]
    // swift-format-ignore: UseShorthandTypeNames
    /// Who acknowledged or dismissed the alert, and through which channel (`http`, `cli`,
    /// `mqtt`, `page`, …): `"nurse-2 via http"`. `nil` for other kinds.
    public var answeredBy: Optional<String>
    // swift-format-ignore: UseShorthandTypeNames
    /// The beacon's name when the configuration names it (`beacons:`), else `nil`.
    public var beaconName: Optional<String>
    /// The beacon's tags when the configuration names it (`beacons:`), else empty.
    public var beaconTags: [String]
    /// The alert's level (`priority:`): what it may interrupt, and where the page puts it.
    public var priority: AlertPriority

    // Inlinable: the engine makes two of these per alert, and an opaque call copies each field.
    // No stored property has an initial value, not even an optional's implicit `nil` (hence
    // `Optional<…>` spelled out above): the inlined init called each initial value's
    // initializer out of line, and those calls kept the caller from building the event in
    // place — it was built aside, then copied into its routed event and destroyed.
    @inlinable
    public init(
        kind: Kind, alertID: String, beacon: BeaconID, strategy: String, time: Timestamp,
        scheduledFor: Timestamp? = nil, content: AlertContent = AlertContent(), messages: [String] = [],
        attempt: Int = 0, escalatedTo: [String] = [], answeredBy: String? = nil, priority: AlertPriority = .active
    ) {
        self.kind = kind
        self.alertID = alertID
        self.beacon = beacon
        self.strategy = strategy
        self.time = time
        self.scheduledFor = scheduledFor
        self.content = content
        self.messages = messages
        self.attempt = attempt
        self.escalatedTo = escalatedTo
        self.answeredBy = answeredBy
        beaconName = nil
        beaconTags = []
        self.priority = priority
    }

    /// A key that identifies this event across retries and restarts (for idempotent delivery).
    ///
    /// `alert|beacon|kind|due` (due in nanoseconds since the epoch), with `|attempt` appended for
    /// a reminder (attempt 1 and on), so that each reminder is delivered once, not taken by a
    /// receiver for a retry of the first.
    public var idempotencyKey: String {
        let base = "\(alertID)|\(beacon)|\(kind.rawValue)|\((scheduledFor ?? time).nanosecondsSinceEpoch)"
        return attempt > 0 ? base + "|\(attempt)" : base
    }

    /// The alert instance this event is about, as a person acknowledges, dismisses or cancels it: the
    /// idempotency key of its first delivery, `alert|beacon|delivered|due`. Reminders and the
    /// answer carry the same instance.
    public var instanceKey: String {
        "\(alertID)|\(beacon)|\(Kind.delivered.rawValue)|\((scheduledFor ?? time).nanosecondsSinceEpoch)"
    }
}
