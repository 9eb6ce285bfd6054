import BeaconAlertEngine
import BeaconCore

/// An answer to an alert (or its cancellation) as a channel sends it — the control endpoint's query, an MQTT
/// command's JSON — read into an `AlertAnswerRequest`, the same way whatever
/// the channel:
///
/// | action | fields |
/// |---|---|
/// | `acknowledge`, `dismiss` | `instance` (the `instance` of the delivered event), or `beacon` (and optionally `alert`): the latest unanswered delivery of that beacon; `by` (default `anonymous`); `suppress` (`30m`, `1d`, `forever`: dismiss only) |
/// | `cancel` | `instance`: a scheduled delivery (its `created` event's `instance`, or a waiting alert's `cancel`) or a delivered one with a reminder pending; `by` |
/// | `unsuppress` | `alert` and `beacon` |
public enum AlertAnswerCommand {
    /// The actions.
    public static let actions = ["acknowledge", "dismiss", "cancel", "unsuppress"]

    /// The request `fields` ask for, answered through `channel` (`http`, `mqtt`, …: the event
    /// names the answerer as `by via channel`); or what is wrong with them, in words.
    public static func request(
        action: String, fields: [String: String], channel: String
    ) -> Result<AlertAnswerRequest, AlertAnswerCommandError> {
        switch action {
        case "acknowledge", "dismiss":
            let kind: AlertAnswer.Kind = action == "acknowledge" ? .acknowledged : .dismissed
            let by = answerer(fields, channel: channel)
            var suppress: AlertSuppression?
            if let text = fields["suppress"] {
                guard kind == .dismissed else { return .failure(.init("'suppress' goes with dismiss, not acknowledge")) }
                guard let parsed = AlertSuppression(parsing: text) else {
                    return .failure(.init("suppress '\(text.prefix(40))' is not a duration (30m, 1d) or 'forever'"))
                }
                suppress = parsed
            }
            if let text = fields["instance"] {
                guard let instance = AlertInstance(text) else {
                    return .failure(.init(AlertAnswerError.malformedInstance(text).description))
                }
                return .success(.answer(kind, instance: instance, by: by, suppress: suppress))
            }
            if let text = fields["beacon"] {
                guard let beacon = BeaconID(text) else { return .failure(.notABeacon(text)) }
                return .success(
                    .answerLatest(kind, beacon: beacon, alertID: fields["alert"], by: by, suppress: suppress))
            }
            return .failure(
                .init(
                    "give the alert instance ('instance', the 'instance' of the delivered event) or the beacon ('beacon') to \(action)"
                ))
        case "cancel":
            guard let text = fields["instance"] else {
                return .failure(
                    .init(
                        "give the alert instance to cancel ('instance': the 'instance' of its created event, or the 'cancel' of a waiting alert in GET /api/alerts)"
                    ))
            }
            guard let instance = AlertInstance(text) else {
                return .failure(.init(AlertAnswerError.malformedInstance(text).description))
            }
            if fields["suppress"] != nil { return .failure(.init("'suppress' goes with dismiss, not cancel")) }
            return .success(.answer(.cancelled, instance: instance, by: answerer(fields, channel: channel)))
        case "unsuppress":
            guard let alert = fields["alert"], !alert.isEmpty, let text = fields["beacon"] else {
                return .failure(.init("give the alert and the beacon to unsuppress: alert=ID, beacon=ibeacon:UUID:1:2"))
            }
            guard let beacon = BeaconID(text) else { return .failure(.notABeacon(text)) }
            return .success(.liftSuppression(AlertKey(alertID: alert, beacon: beacon)))
        default:
            return .failure(.init("no such action '\(action.prefix(40))': use acknowledge, dismiss, cancel or unsuppress"))
        }
    }

    /// `by via channel`, as the event names the answerer (`by` defaults to `anonymous`).
    private static func answerer(_ fields: [String: String], channel: String) -> String {
        let who = String((fields["by"].flatMap { $0.isEmpty ? nil : $0 } ?? "anonymous").prefix(64))
        return "\(who) via \(channel.prefix(16))"
    }

    /// `{"instance":…,"answer":"acknowledged","by":…,"at":…,"repeated":false}` or `{"lifted":true}`,
    /// led by `"id"` when the command carried one.
    public static func json(for outcome: AlertAnswerOutcome, id: String? = nil) -> String {
        var json = JSONWriter()
        json.object { object in
            object.member("id", id)
            switch outcome {
            case .answered(let receipt):
                object.member("instance", receipt.instance.description)
                object.member("answer", receipt.answer.kind.rawValue)
                object.member("by", receipt.answer.by)
                object.member("at", receipt.answer.at.rfc3339String)
                object.member("repeated", receipt.repeated)
                object.member("stoppedReminder", receipt.stoppedReminder)
            case .lifted(let lifted):
                object.member("lifted", lifted)
            }
        }
        return json.string
    }
}

/// Why an answer command cannot be read; the message says what to send instead.
public struct AlertAnswerCommandError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong and what to send.
    public var description: String

    /// Creates an error with its message.
    public init(description: String) { self.description = description }

    init(_ description: String) { self.description = description }

    static func notABeacon(_ text: String) -> Self {
        .init(
            "beacon '\(text.prefix(80))' is not a beacon id: write ibeacon:UUID:major:minor, altbeacon:UUID:id2:id3 "
                + "or eddystone-uid:NAMESPACE:INSTANCE")
    }
}
