import BeaconCore

extension EngineStep {
    /// Applies the firing rules (``FiringMode``, cooldown, suppression: a `critical` alert passes
    /// the last two, and says so), then schedules the first occurrence.
    mutating func fire(_ firing: StrategyFiring, rule: AlertRule, now: Timestamp) {
        let key = AlertKey(alertID: firing.alertID, beacon: firing.beacon)
        let policy = rule.policy
        let past = history(key)
        if policy.obstacle(toFiringAt: firing.time, history: past) != nil { return }
        if let condition = policy.scheduleCondition, let failure = condition.failure(for: key.beacon, now: now, in: world) {
            emit(
                .cancelled, key: key, strategy: firing.strategy, rule: rule, now: now, scheduledFor: nil,
                messages: ["not scheduled: the schedule condition (\(condition)) does not hold: \(failure)"])
            return
        }

        if let superseded = state.pending[key] {
            record(.removePending(key))
            emitCancelled(
                superseded, rule: rule, now: now, messages: ["superseded by a later firing at \(firing.time.rfc3339String)"])
        }
        // Only this sets `firstFiringAt`, so what `past` says of it still holds. A delivery at
        // once sets it with the delivery's own history update.
        if past.firstFiringAt == nil { pendingFirstFiring = (key, firing.time) }
        let accepted = schedule(
            key: key, rule: rule, strategy: firing.strategy, firedAt: firing.time,
            seriesStart: policy.firstDue(firedAt: firing.time), occurrence: 0, after: nil, now: now,
            notes: policy.passedObstacleNotes(firingAt: firing.time, history: past))
        if let pending = pendingFirstFiring {
            pendingFirstFiring = nil
            if accepted { updateHistory(key) { $0.firstFiringAt = pending.time } }
        }
    }
}
