import BeaconCore

extension EngineStep {
    /// Cancels one instance by its key, as a person (or a system) asks: AlertFlag's
    /// `action=cancel&uuid=…`.
    ///
    /// - A **scheduled** instance (pending, never delivered: `instance` is its due time, the
    ///   `instance` of its latest `created` event, or the end of its `deliverWhen` wait) is
    ///   removed; a repeating alert's series ends with it.
    /// - A **reminding** instance (delivered, a reminder pending) reminds no more, and keeps
    ///   `cancelled` as its answer, so that it no longer waits for one.
    ///
    /// Either way one `cancelled` event names who cancelled (its `callbackCancelled` fires). The
    /// same cancellation of a reminding instance again is a no-op (`repeated`); anything else
    /// throws and changes nothing: an instance delivered without a reminder pending (answer it),
    /// one answered otherwise, a scheduled one since moved (by a delivery window) or one there
    /// never was.
    mutating func cancelInstance(_ instance: AlertInstance, by: String, now: Timestamp) throws(AlertAnswerError)
        -> AlertAnswerReceipt
    {
        let key = instance.key
        let rule = configuration.rules[key.alertID]
        let answer = AlertAnswer(kind: .cancelled, instanceDue: instance.due, by: by, at: now)
        if let pending = state.pending[key], pending.attempt == 0,
            pending.dueAt == instance.due || pending.heldUntil == instance.due
        {
            record(.removePending(key))
            emit(
                .cancelled, key: key, strategy: pending.strategy, rule: rule, now: now, scheduledFor: pending.dueAt,
                messages: ["cancelled by \(by) before its delivery, due \(pending.dueAt.rfc3339String)"], answeredBy: by)
            return AlertAnswerReceipt(instance: instance, answer: answer, repeated: false)
        }
        var updated = history(key)
        guard let latest = updated.instanceDue, latest == instance.due else {
            if updated.earlierInstanceDues.contains(instance.due), let latest = updated.instanceDue {
                throw .superseded(instance, latest: AlertInstance(key: key, due: latest))
            }
            if let pending = state.pending[key], pending.attempt == 0 {
                throw .rescheduled(instance, current: AlertInstance(key: key, due: pending.dueAt))
            }
            throw .notScheduled(instance)
        }
        if let earlier = updated.answer, earlier.instanceDue == instance.due {
            guard earlier.kind == .cancelled else { throw .alreadyAnswered(instance, earlier) }
            return AlertAnswerReceipt(instance: instance, answer: earlier, repeated: true)
        }
        guard let reminder = state.pending[key], reminder.attempt > 0 else { throw .nothingToCancel(instance) }
        updated.answer = answer
        record(.putHistory(updated))
        record(.removePending(key))
        emit(
            .cancelled, key: key, strategy: updated.instanceStrategy ?? reminder.strategy, rule: rule, now: now,
            scheduledFor: instance.due,
            messages: [
                "cancelled by \(by) after \(updated.attempts) \(updated.attempts == 1 ? "delivery" : "deliveries"); "
                    + "reminder \(reminder.attempt), due \(reminder.dueAt.rfc3339String), will not be sent"
            ],
            attempt: reminder.attempt, answeredBy: by)
        return AlertAnswerReceipt(instance: instance, answer: answer, repeated: false, stoppedReminder: reminder.attempt)
    }
}
