import BeaconAlertEngine
import BeaconCore

/// What a sink delivers: one alert event as its JSON line, with the key that identifies it across
/// retries and restarts and the per-event callback destination, if the alert configured one.
///
/// This is the form in which events wait in the outbox, so a sink never needs more than this.
public struct OutboundEvent: Hashable, Sendable {
    /// The idempotency key (`AlertEvent/idempotencyKey`): the same for every retry.
    public var key: String
    /// The event as one JSON object (`AlertEvent/jsonLine`), without a line break.
    public var body: String
    /// The callback URL of this event's kind (overrides a webhook's default URL), if any.
    public var destination: String?
    /// The escalation sinks this event also goes to (`AlertEvent/escalatedTo`); not stored: the
    /// outbox takes it into account when it makes the sinks' copies.
    public var escalatedTo: [String]
    /// For a delivered alert: the moment its advertisement-to-sink latency counts from
    /// (`RoutedEvent/origin`), kept with the event in the outbox so that a delivery after retries
    /// or a restart counts the whole wait; `nil` for every other event.
    public var origin: Timestamp?
    /// For a delivered alert: its alert id (the latency's label); `nil` for every other event.
    public var alertID: String?

    /// Creates an outbound event from its parts.
    public init(
        key: String, body: String, destination: String? = nil, escalatedTo: [String] = [], origin: Timestamp? = nil,
        alertID: String? = nil
    ) {
        self.key = key
        self.body = body
        self.destination = destination
        self.escalatedTo = escalatedTo
        self.origin = origin
        self.alertID = alertID
    }

    /// The outbound form of an engine output.
    public init(_ routed: RoutedEvent) {
        let timed = routed.origin != nil
        self.init(
            key: routed.event.idempotencyKey, body: routed.event.jsonLine, destination: routed.destination,
            escalatedTo: routed.event.escalatedTo, origin: routed.origin, alertID: timed ? routed.event.alertID : nil)
    }

    /// The outbound form of a daemon's notice (its sinks are the outbox's to choose).
    public init(_ notice: OutboundNotice) {
        self.init(key: notice.key, body: notice.body)
    }
}

extension OutboundEvent {
    /// When the event happened: its body's `time` (RFC 3339), else the time its key carries;
    /// `nil` when neither says. What dead letters are aged by (`retention.deadLetters`).
    public static func time(ofBody body: String, key: String) -> Timestamp? {
        Timestamp(timeMemberOf: body) ?? time(ofKey: key)
    }

    /// The time an idempotency key carries (`alert|beacon|kind|nanoseconds[|attempt]`: the
    /// instance's due time, or the event's own); `nil` for a key of another form.
    public static func time(ofKey key: String) -> Timestamp? {
        let fields = key.utf8.split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false)
        guard fields.count >= 4, let nanoseconds = Int64(Substring(fields[3])) else { return nil }
        return Timestamp(nanosecondsSinceEpoch: nanoseconds)
    }
}
