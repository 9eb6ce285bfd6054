import BeaconAlertEngine
import BeaconCore

extension DecisionStage {
    /// How often histories are looked at for a retention: a tenth of it, at most hourly, at
    /// least every minute — a history outlives the retention by at most that.
    static func historySweepInterval(for retention: Duration) -> Duration {
        min(max(retention / 10, .seconds(60)), .seconds(3_600))
    }

    /// Forgets the histories idle for longer than ``historyRetention`` when a sweep is due at
    /// `now` (the cycle's time); the removals go with the input's transaction.
    func sweepHistories(now: Timestamp) {
        guard let retention = historyRetention else { return }
        if let next = nextHistorySweep, now < next { return }
        nextHistorySweep = now + Self.historySweepInterval(for: retention)
        let forgotten = engine.forgetHistories(idleSince: now - retention, now: now, into: &output)
        historiesForgotten += forgotten
        // A history with an answer may have gone: the unanswered are counted again.
        if forgotten > 0 { unansweredMayHaveChanged = true }
    }
}
