import BeaconAlertEngine
import BeaconCore

/// `POST /alerts/acknowledge`, `POST /alerts/dismiss` and `POST /alerts/unsuppress`: answers to
/// delivered alerts through the control endpoint (token-protected like every route).
///
/// | request | does |
/// |---|---|
/// | `POST /alerts/acknowledge?instance=KEY&by=NAME` | acknowledges the instance `KEY` (the `instance` of its delivered event): its reminders stop |
/// | `POST /alerts/dismiss?instance=KEY&by=NAME&suppress=1d` | dismisses it; `suppress` (`30m`, `1d`, `forever`) also keeps the alert from firing for that beacon |
/// | `POST /alerts/unsuppress?alert=ID&beacon=BEACON` | lifts a suppression |
///
/// `by` defaults to `anonymous`; the event names it with the channel (`nurse-2 via http`; the
/// command line and the page send `via=cli`, `via=page`). The answer is `200` with what was done
/// (`"repeated": true` when the same answer had already been taken: a retried request is
/// harmless); an unknown instance is `404`, one already answered otherwise or superseded `409`,
/// a malformed one `400` — each with a message saying what to do.
enum AlertAnswerRoute {
    static let prefix = "/alerts/"

    static func respond(
        action: String, query: [String: String],
        answer: @Sendable (AlertAnswerRequest) async throws -> AlertAnswerOutcome
    ) async -> ControlResponse {
        let request: AlertAnswerRequest
        switch action {
        case "acknowledge", "dismiss":
            guard let text = query["instance"] else {
                return .error(
                    400, "give the alert instance: POST /alerts/\(action)?instance=KEY (the 'instance' of the delivered event)")
            }
            guard let instance = AlertInstance(text) else {
                return .error(400, AlertAnswerError.malformedInstance(text).description)
            }
            let who = String((query["by"].flatMap { $0.isEmpty ? nil : $0 } ?? "anonymous").prefix(64))
            let channel = String((query["via"].flatMap { $0.isEmpty ? nil : $0 } ?? "http").prefix(16))
            var suppress: AlertSuppression?
            if let text = query["suppress"] {
                guard action == "dismiss" else { return .error(400, "'suppress' goes with dismiss, not acknowledge") }
                guard let parsed = AlertSuppression(parsing: text) else {
                    return .error(400, "suppress '\(text.prefix(40))' is not a duration (30m, 1d) or 'forever'")
                }
                suppress = parsed
            }
            request = .answer(
                action == "acknowledge" ? .acknowledged : .dismissed, instance: instance, by: "\(who) via \(channel)",
                suppress: suppress)
        case "unsuppress":
            guard let alert = query["alert"], !alert.isEmpty, let text = query["beacon"], let beacon = BeaconID(text) else {
                return .error(400, "give the alert and the beacon: POST /alerts/unsuppress?alert=ID&beacon=ibeacon:UUID:1:2")
            }
            request = .liftSuppression(AlertKey(alertID: alert, beacon: beacon))
        default:
            return .error(404, "no such action: /alerts/\(action.prefix(40)); use acknowledge, dismiss or unsuppress")
        }
        do {
            return ControlResponse(status: 200, body: json(for: try await answer(request)) + "\n")
        } catch let error as AlertAnswerError {
            let status =
                switch error {
                case .malformedInstance: 400
                case .unknownInstance: 404
                case .superseded, .alreadyAnswered: 409
                }
            return .error(status, error.description)
        } catch {
            return .error(500, "the answer was not applied: \(error)")
        }
    }

    /// `{"instance":…,"answer":"acknowledged","by":…,"at":…,"repeated":false}` or `{"lifted":true}`.
    static func json(for outcome: AlertAnswerOutcome) -> String {
        var json = JSONWriter()
        json.object { object in
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
