import BeaconCore

extension EngineStep {
    /// A fact from outside the strategies: a beacon's exit ends its quiet first start; then the
    /// pending alerts the fact cancels are cancelled.
    mutating func take(_ fact: EngineFact, now: Timestamp) {
        if case .beaconExit(let beacon) = fact, !configuration.quietAtFirstStart.isEmpty { endQuiet(for: beacon) }
        cancel(matching: fact, now: now)
    }

    /// Marks `beacons` as already in range for `alertID` (`firstStart: quiet`): their firings
    /// are ignored until each has gone. A beacon marked already, or one the alert has a history
    /// of, is left as it is.
    mutating func quietAtFirstStart(_ beacons: [BeaconID], alertID: String) {
        for beacon in beacons {
            let key = AlertKey(alertID: alertID, beacon: beacon)
            guard state.history[key] == nil else { continue }
            var history = AlertHistory(key: key)
            history.quietUntilGone = true
            record(.putHistory(history))
        }
    }

    /// The beacon went away: the alerts that kept quiet for it since their first start alert for
    /// it again.
    mutating func endQuiet(for beacon: BeaconID) {
        for alertID in configuration.quietAtFirstStart {
            let key = AlertKey(alertID: alertID, beacon: beacon)
            guard var history = state.history[key], history.quietUntilGone else { continue }
            history.quietUntilGone = false
            record(.putHistory(history))
        }
    }
}
