import BeaconCore

extension EngineStep {
    /// Schedules reminder `attempt` of the instance `alert` just delivered (or reminded), when the
    /// rule reminds and has reminders left, and the key's pending slot is free (a repeat or a new
    /// firing there wins: the instance is then followed by another).
    mutating func scheduleReminder(of alert: PendingAlert, attempt: Int, rule: AlertRule, now: Timestamp) {
        guard let remind = rule.policy.remind, attempt <= remind.max, state.pending[alert.key] == nil else { return }
        record(
            .putPending(
                PendingAlert(
                    key: alert.key, strategy: alert.strategy, firedAt: alert.firedAt, seriesStart: alert.seriesStart,
                    occurrence: alert.occurrence, dueAt: now + remind.every, attempt: attempt)))
    }

    /// Delivers reminder `alert` (no longer pending) of the instance the history holds, unless
    /// that instance has been answered, and schedules the next.
    mutating func remind(_ alert: PendingAlert, rule: AlertRule, now: Timestamp) {
        var updated = history(alert.key)
        guard let instanceDue = updated.instanceDue, updated.isAwaitingAnswer else { return }
        updated.attempts += 1
        record(.putHistory(updated))
        let total = rule.policy.remind?.max ?? alert.attempt
        var messages = ["reminder \(alert.attempt) of \(total): not acknowledged since \(instanceDue.rfc3339String)"]
        let lateness = now - alert.dueAt
        if lateness >= .seconds(1) {
            messages.append("sent \(lateness.humanReadable) late (due \(alert.dueAt.rfc3339String))")
        }
        if let passed = rule.policy.passedWindowNote(at: now) { messages.append(passed) }
        let escalation = rule.policy.remind?.escalation(forAttempt: alert.attempt) ?? []
        if !escalation.isEmpty {
            messages.append("escalated to \(escalation.joined(separator: ", ")): unanswered after \(alert.attempt) deliveries")
        }
        emit(
            .delivered, key: alert.key, strategy: alert.strategy, rule: rule, now: now, scheduledFor: instanceDue,
            messages: messages, attempt: alert.attempt, escalatedTo: escalation)
        scheduleReminder(of: alert, attempt: alert.attempt + 1, rule: rule, now: now)
    }
}
