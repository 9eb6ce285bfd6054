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
    /// When the alert is (or was) due, if scheduled.
    public var scheduledFor: Timestamp?
    /// The alert's content.
    public var content: AlertContent
    /// Human-readable messages (errors, reasons for deferral or cancellation).
    public var messages: [String]
    /// The beacon's name when the configuration names it (`beacons:`), else `nil`.
    public var beaconName: String?
    /// The beacon's tags when the configuration names it (`beacons:`), else empty.
    public var beaconTags: [String] = []

    public init(
        kind: Kind, alertID: String, beacon: BeaconID, strategy: String, time: Timestamp,
        scheduledFor: Timestamp? = nil, content: AlertContent = AlertContent(), messages: [String] = []
    ) {
        self.kind = kind
        self.alertID = alertID
        self.beacon = beacon
        self.strategy = strategy
        self.time = time
        self.scheduledFor = scheduledFor
        self.content = content
        self.messages = messages
    }

    /// A key that identifies this event across retries and restarts (for idempotent delivery).
    public var idempotencyKey: String {
        "\(alertID)|\(beacon)|\(kind.rawValue)|\((scheduledFor ?? time).nanosecondsSinceEpoch)"
    }
}
