import BeaconCore

extension EngineStep {
    /// Removes the histories that nothing needs any more and that last changed before `cutoff`
    /// (see ``AlertEngine/forgetHistories(idleSince:now:into:)``); returns how many went.
    mutating func forgetHistories(idleSince cutoff: Timestamp, now: Timestamp) -> Int {
        var idle: [AlertKey] = []
        for (key, history) in state.history where state.pending[key] == nil && !history.quietUntilGone {
            guard Self.latestActivity(of: history) < cutoff else { continue }
            if let until = history.suppressedUntil, until > now { continue }
            if let delivered = history.lastDeliveredAt, let cooldown = configuration.rules[key.alertID]?.policy.cooldown,
                delivered + cooldown > now
            {
                continue
            }
            idle.append(key)
        }
        idle.sort()
        for key in idle { record(.removeHistory(key)) }
        return idle.count
    }

    /// The latest moment a history records: its first firing, last delivery, latest instance,
    /// answer or the end of its suppression.
    static func latestActivity(of history: AlertHistory) -> Timestamp {
        var latest = Timestamp.epoch
        for time in [
            history.firstFiringAt, history.lastDeliveredAt, history.instanceDue, history.answer?.at,
            history.suppressedUntil,
        ] {
            if let time, time > latest { latest = time }
        }
        return latest
    }
}
