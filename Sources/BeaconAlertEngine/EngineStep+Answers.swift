import BeaconCore

extension EngineStep {
    /// Takes an answer to `instance` (a cancellation: ``cancelInstance(_:by:now:)``): records it, stops its pending reminder, suppresses the alert
    /// for the beacon when a dismissal asks for it, and emits the answer's event. The same answer
    /// again is a no-op (`repeated`); any other answer to an answered, superseded or unknown
    /// instance is an error that changes nothing. An instance is superseded when it is one of
    /// the remembered earlier instances (``AlertHistory/earlierInstanceDues``); any other time
    /// names an instance that never was.
    mutating func answer(
        _ kind: AlertAnswer.Kind, instance: AlertInstance, by: String, suppress: AlertSuppression?, now: Timestamp
    ) throws(AlertAnswerError) -> AlertAnswerReceipt {
        if kind == .cancelled { return try cancelInstance(instance, by: by, now: now) }
        let key = instance.key
        var updated = history(key)
        guard let latest = updated.instanceDue else { throw .unknownInstance(instance) }
        if let earlier = updated.answer, earlier.instanceDue == instance.due {
            guard earlier.kind == kind else { throw .alreadyAnswered(instance, earlier) }
            return AlertAnswerReceipt(instance: instance, answer: earlier, repeated: true)
        }
        guard latest == instance.due else {
            guard updated.earlierInstanceDues.contains(instance.due) else { throw .unknownInstance(instance) }
            throw .superseded(instance, latest: AlertInstance(key: key, due: latest))
        }
        let answer = AlertAnswer(kind: kind, instanceDue: instance.due, by: by, at: now)
        let deliveries = updated.attempts
        updated.answer = answer
        var messages = ["\(kind.rawValue) by \(by) after \(deliveries) \(deliveries == 1 ? "delivery" : "deliveries")"]
        if kind == .dismissed, let suppress {
            updated.suppressedUntil = suppress.end(from: now)
            messages.append("alert '\(key.alertID)' suppressed for this beacon \(suppress)")
        }
        record(.putHistory(updated))
        var stopped: Int?
        if let pending = state.pending[key], pending.attempt > 0 {
            record(.removePending(key))
            stopped = pending.attempt
            messages.append("reminder \(pending.attempt), due \(pending.dueAt.rfc3339String), will not be sent")
        }
        emit(
            kind.eventKind, key: key, strategy: updated.instanceStrategy ?? "", rule: configuration.rules[key.alertID],
            now: now, scheduledFor: instance.due, messages: messages, answeredBy: by)
        return AlertAnswerReceipt(instance: instance, answer: answer, repeated: false, stoppedReminder: stopped)
    }

    /// Lifts the suppression of `key`; false when there was none in force at `now`.
    mutating func liftSuppression(_ key: AlertKey, now: Timestamp) -> Bool {
        var updated = history(key)
        guard let until = updated.suppressedUntil, until > now else { return false }
        updated.suppressedUntil = nil
        record(.putHistory(updated))
        return true
    }
}
