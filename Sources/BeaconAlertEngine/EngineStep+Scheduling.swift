import BeaconCore

extension EngineStep {
    /// Schedules occurrence `occurrence` of a series — or, when `after` is given (a renewal),
    /// the first occurrence due strictly after it — applying the window (``OccurrenceSearch``). Delivers at once what
    /// is due by `now`. Returns `false` only when the pending cap refused it (an `error` event).
    /// `notes` lead the events' messages. An alert whose priority passes its delivery window is
    /// scheduled as if it had none, and its events say when the window was closed.
    @discardableResult
    mutating func schedule(
        key: AlertKey, rule: AlertRule, strategy: String, firedAt: Timestamp, seriesStart: Timestamp,
        occurrence: Int, after: Timestamp?, now: Timestamp, notes: [String] = []
    ) -> Bool {
        let index: Int
        let due: Timestamp
        let messages: [String]
        switch OccurrenceSearch.search(
            seriesStart: seriesStart, occurrence: occurrence, after: after, policy: rule.policy, notes: notes)
        {
        case .stops(let message):
            emit(.error, key: key, strategy: strategy, rule: rule, now: now, scheduledFor: nil, messages: [message])
            return true
        case .dropped(let time, let message):
            emit(.cancelled, key: key, strategy: strategy, rule: rule, now: now, scheduledFor: time, messages: [message])
            return true
        case .due(let found, let at, let said):
            (index, due, messages) = (found, at, said)
        }
        let alert = PendingAlert(
            key: key, strategy: strategy, firedAt: firedAt, seriesStart: seriesStart,
            occurrence: index, dueAt: due)
        if due <= now {
            emit(.created, key: key, strategy: strategy, rule: rule, now: now, scheduledFor: due, messages: messages)
            deliver(alert, rule: rule, now: now, notes: notes)
            return true
        }
        guard state.pending.count < configuration.maxPending else {
            emit(
                .error, key: key, strategy: strategy, rule: rule, now: now, scheduledFor: due,
                messages: messages + [
                    "not scheduled: \(configuration.maxPending) alerts are already pending (maxPending); raise maxPending, shorten delays or cancel sooner"
                ])
            return false
        }
        record(.putPending(alert))
        emit(.created, key: key, strategy: strategy, rule: rule, now: now, scheduledFor: due, messages: messages)
        return true
    }
}
