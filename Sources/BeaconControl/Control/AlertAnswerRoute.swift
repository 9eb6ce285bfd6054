import BeaconAlertEngine
import BeaconCore

/// `POST /alerts/acknowledge`, `POST /alerts/dismiss`, `POST /alerts/cancel` and
/// `POST /alerts/unsuppress`: answers to alerts through the control endpoint (token-protected like every route).
///
/// | request | does |
/// |---|---|
/// | `POST /alerts/acknowledge?instance=KEY&by=NAME` | acknowledges the instance `KEY` (the `instance` of its delivered event): its reminders stop; `?beacon=ID` instead: the beacon's latest unanswered one |
/// | `POST /alerts/dismiss?instance=KEY&by=NAME&suppress=1d` | dismisses it; `suppress` (`30m`, `1d`, `forever`) also keeps the alert from firing for that beacon |
/// | `POST /alerts/cancel?instance=KEY&by=NAME` | cancels a scheduled instance (the `instance` of its `created` event) before its delivery, or a delivered one's pending reminder: one `cancelled` event naming `by` |
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
        let channel = query["via"].flatMap { $0.isEmpty ? nil : $0 } ?? "http"
        let request: AlertAnswerRequest
        switch AlertAnswerCommand.request(action: action, fields: query, channel: channel) {
        case .success(let read): request = read
        case .failure(let error):
            return .error(AlertAnswerCommand.actions.contains(action) ? 400 : 404, error.description)
        }
        do {
            return ControlResponse(status: 200, body: AlertAnswerCommand.json(for: try await answer(request)) + "\n")
        } catch let error as AlertAnswerError {
            let status =
                switch error {
                case .malformedInstance: 400
                case .unknownInstance, .nothingToAnswer, .notScheduled: 404
                case .superseded, .alreadyAnswered, .rescheduled, .nothingToCancel: 409
                }
            return .error(status, error.description)
        } catch {
            return .error(500, "the answer was not applied: \(error)")
        }
    }
}
