import BeaconCore

extension EngineStep {
    /// Delivers `alert` now (it must no longer be pending), renews a repeating series, and
    /// cancels alerts waiting on this delivery (`alertDelivered`); `notes` are added to the
    /// delivery's messages (and what its priority passed).
    mutating func deliver(_ alert: PendingAlert, rule: AlertRule, now: Timestamp, notes: [String] = []) {
        guard alert.attempt == 0 else { return remind(alert, rule: rule, now: now) }
        updateHistory(alert.key) { updated in
            updated.lastDeliveredAt = now
            updated.lastDeliveredDue = alert.dueAt
            updated.deliveries += 1
            updated.beginInstance(due: alert.dueAt)
            updated.instanceStrategy = alert.strategy
            updated.attempts = 1
        }
        var messages: [String] = []
        let lateness = now - alert.dueAt
        if lateness >= .seconds(1) {
            messages.append("delivered \(lateness.humanReadable) late (due \(alert.dueAt.rfc3339String))")
        }
        messages += notes
        if let passed = rule.policy.passedWindowNote(at: now) { messages.append(passed) }
        emit(
            .delivered, key: alert.key, strategy: alert.strategy, rule: rule, now: now, scheduledFor: alert.dueAt,
            messages: messages)
        renew(alert, rule: rule, now: now)
        scheduleReminder(of: alert, attempt: 1, rule: rule, now: now)
        cancel(matching: .alertDelivered(alertID: alert.key.alertID, beacon: alert.key.beacon), now: now)
    }

    /// Schedules the occurrence after `alert` of a repeating series, strictly after both its due
    /// time and `now`.
    mutating func renew(_ alert: PendingAlert, rule: AlertRule, now: Timestamp) {
        guard rule.policy.repeatInterval != .off else { return }
        schedule(
            key: alert.key, rule: rule, strategy: alert.strategy, firedAt: alert.firedAt,
            seriesStart: alert.seriesStart, occurrence: alert.occurrence + 1, after: max(alert.dueAt, now), now: now)
    }

    /// Handles every pending alert due by `now`, earliest first.
    mutating func advance(to now: Timestamp) {
        let orphans = state.pending.values.filter { configuration.rules[$0.key.alertID] == nil }
        for orphan in orphans.sorted(by: { $0.key < $1.key }) {
            record(.removePending(orphan.key))
            emitCancelled(
                orphan, rule: nil, now: now, messages: ["cancelled: alert '\(orphan.key.alertID)' is no longer configured"])
        }
        let due = state.pending.values.filter { $0.dueAt <= now }.sorted { ($0.dueAt, $0.key) < ($1.dueAt, $1.key) }
        for candidate in due {
            // An earlier delivery in this step may have cancelled it.
            guard let alert = state.pending[candidate.key], alert == candidate,
                let rule = configuration.rules[alert.key.alertID]
            else { continue }
            let policy = rule.policy
            let lateness = now - alert.dueAt
            if alert.attempt > 0 {
                // A reminder waits for a closed window and is sent late rather than not at all.
                if let window = policy.enforcedWindow, !window.contains(now) {
                    var moved = alert
                    moved.dueAt = window.nextOpening(atOrAfter: now)
                    record(.putPending(moved))
                } else {
                    record(.removePending(alert.key))
                    deliver(alert, rule: rule, now: now)
                }
                continue
            }
            if alert.heldUntil == nil, let maxLateness = policy.maxLateness, lateness > maxLateness {
                record(.removePending(alert.key))
                emit(
                    .cancelled, key: alert.key, strategy: alert.strategy, rule: rule, now: now, scheduledFor: alert.dueAt,
                    messages: [
                        "dropped: due \(alert.dueAt.rfc3339String), \(lateness.humanReadable) ago, more than maxLateness (\(maxLateness.humanReadable))"
                    ])
                renew(alert, rule: rule, now: now)
                continue
            }
            if let window = policy.enforcedWindow, !window.contains(now) {
                switch window.outsideWindow {
                case .defer:
                    var moved = alert
                    moved.dueAt = window.nextOpening(atOrAfter: now)
                    record(.putPending(moved))
                    emit(
                        .created, key: alert.key, strategy: alert.strategy, rule: rule, now: now, scheduledFor: moved.dueAt,
                        messages: [
                            "deferred from \(alert.dueAt.rfc3339String) to \(moved.dueAt.rfc3339String): the delivery window (\(window)) was closed when it was handled"
                        ])
                case .drop:
                    record(.removePending(alert.key))
                    emit(
                        .cancelled, key: alert.key, strategy: alert.strategy, rule: rule, now: now, scheduledFor: alert.dueAt,
                        messages: [
                            "dropped: due \(alert.dueAt.rfc3339String), the delivery window (\(window)) was closed when it was handled"
                        ])
                    renew(alert, rule: rule, now: now)
                }
                continue
            }
            if let condition = policy.deliverWhen, !waitsOrExpires(alert, for: condition, rule: rule, now: now) { continue }
            record(.removePending(alert.key))
            deliver(alert, rule: rule, now: now)
        }
    }

    /// Applies `deliverWhen` to due `alert`: true when it is to be delivered now (the condition
    /// holds, or the wait ran out and the alert is delivered anyway); false when it stays held
    /// (first held: a `created` event says why and until when) or was dropped.
    mutating func waitsOrExpires(_ alert: PendingAlert, for when: DeliveryCondition, rule: AlertRule, now: Timestamp) -> Bool {
        guard let failure = when.condition.failure(for: alert.key.beacon, now: now, in: world) else { return true }
        let end = alert.heldUntil ?? alert.dueAt + when.maxWait
        if now < end {
            if alert.heldUntil == nil {
                var held = alert
                held.heldUntil = end
                record(.putPending(held))
                // Scheduled for the end of the wait: its own idempotency key, not the first `created`'s.
                emit(
                    .created, key: alert.key, strategy: alert.strategy, rule: rule, now: now, scheduledFor: end,
                    messages: [
                        "held: delivered once \(when.condition) holds (\(failure)), or \(when.then == .drop ? "dropped" : "delivered anyway") at \(end.rfc3339String)"
                    ])
            }
            return false
        }
        switch when.then {
        case .deliver:
            record(.removePending(alert.key))
            deliver(
                alert, rule: rule, now: now,
                notes: ["the delivery condition (\(when.condition)) never held within \(when.maxWait.humanReadable): \(failure)"])
        case .drop:
            record(.removePending(alert.key))
            emit(
                .cancelled, key: alert.key, strategy: alert.strategy, rule: rule, now: now, scheduledFor: alert.dueAt,
                messages: [
                    "dropped: the delivery condition (\(when.condition)) did not hold within \(when.maxWait.humanReadable): \(failure)"
                ])
            renew(alert, rule: rule, now: now)
        }
        return false
    }
}
