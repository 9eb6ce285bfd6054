import BeaconCore

/// An answer to a delivered alert, or the lifting of a suppression, as a running daemon takes it
/// (from its control endpoint, its command line, an MQTT command or the status page).
public enum AlertAnswerRequest: Hashable, Sendable {
    /// Acknowledge or dismiss `instance` (``AlertEngine/answer(_:instance:by:suppress:now:)``).
    case answer(AlertAnswer.Kind, instance: AlertInstance, by: String, suppress: AlertSuppression? = nil)
    /// Acknowledge or dismiss the latest delivered instance still waiting for an answer for
    /// `beacon` (of `alertID` only, when given): what a button for a beacon sends, without an
    /// instance key to hand.
    case answerLatest(AlertAnswer.Kind, beacon: BeaconID, alertID: String?, by: String, suppress: AlertSuppression? = nil)
    /// Lift the suppression of an alert for a beacon (``AlertEngine/liftSuppression(_:now:)``).
    case liftSuppression(AlertKey)
}

/// What an ``AlertAnswerRequest`` did.
public enum AlertAnswerOutcome: Hashable, Sendable {
    /// The answer taken (or found already taken).
    case answered(AlertAnswerReceipt)
    /// Whether a suppression was in force and is now lifted.
    case lifted(Bool)
}

extension AlertEngine {
    /// Carries out `request` at `now`; see the methods it names.
    public mutating func handle(
        _ request: AlertAnswerRequest, now: Timestamp
    ) throws(AlertAnswerError) -> (AlertEngineOutput, AlertAnswerOutcome) {
        switch request {
        case .answer(let kind, let instance, let by, let suppress):
            let (output, receipt) = try answer(kind, instance: instance, by: by, suppress: suppress, now: now)
            return (output, .answered(receipt))
        case .answerLatest(let kind, let beacon, let alertID, let by, let suppress):
            let candidates = state.history.values.filter { history in
                history.key.beacon == beacon && history.isAwaitingAnswer && (alertID == nil || history.key.alertID == alertID)
            }
            guard let latest = candidates.max(by: { ($0.instanceDue!, $0.key) < ($1.instanceDue!, $1.key) }),
                let due = latest.instanceDue
            else { throw .nothingToAnswer(beacon: beacon, alertID: alertID) }
            let (output, receipt) = try answer(
                kind, instance: AlertInstance(key: latest.key, due: due), by: by, suppress: suppress, now: now)
            return (output, .answered(receipt))
        case .liftSuppression(let key):
            let output = liftSuppression(key, now: now)
            return (output, .lifted(!output.changes.isEmpty))
        }
    }
}
