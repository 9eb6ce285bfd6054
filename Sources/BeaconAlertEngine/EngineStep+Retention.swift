import BeaconCore

extension EngineStep {
    /// Removes the histories that nothing needs any more and that last changed before `cutoff`
    /// (see ``AlertEngine/forgetHistories(idleSince:now:into:)``); returns how many went.
    mutating func forgetHistories(idleSince cutoff: Timestamp, now: Timestamp) -> Int {
        var idle: [AlertKey] = []
        var keptOf: Set<String> = []
        for (key, history) in state.history {
            guard state.pending[key] == nil, !history.quietUntilGone, Self.latestActivity(of: history) < cutoff,
                !inCooldown(history, at: now)
            else {
                keptOf.insert(key.alertID)
                continue
            }
            idle.append(key)
        }
        // A `firstStart: quiet` alert is known to have started by its histories: the latest of
        // them stays, or a restart would take the alert for new and keep quiet for whoever is in range.
        for alertID in configuration.quietAtFirstStart where !keptOf.contains(alertID) {
            let latest = idle.filter { $0.alertID == alertID }.max { a, b in
                Self.latestActivity(of: state.history[a]!) < Self.latestActivity(of: state.history[b]!)
            }
            if let latest { idle.removeAll { $0 == latest } }
        }
        idle.sort()
        for key in idle { record(.removeHistory(key)) }
        return idle.count
    }

    /// Whether the cooldown after the history's last delivery still runs at `now`.
    private func inCooldown(_ history: AlertHistory, at now: Timestamp) -> Bool {
        guard let delivered = history.lastDeliveredAt, let cooldown = configuration.rules[history.key.alertID]?.policy.cooldown
        else { return false }
        return delivered + cooldown > now
    }

    /// The latest moment a history records: its first firing, last delivery, latest instance,
    /// answer or the end of its suppression (a suppression in force at `now` is after any cutoff
    /// before it, so it keeps its history).
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
