import BeaconAlertEngine
import BeaconCore

extension DecisionStage {
    /// Forgets the histories idle for longer than the retention when its sweep is due at `now`
    /// (the cycle's time); the removals go with the input's transaction.
    func sweepHistories(now: Timestamp) {
        guard let cutoff = historySweep?.cutoff(at: now) else { return }
        let forgotten = engine.forgetHistories(idleSince: cutoff, now: now, into: &output)
        historiesForgotten += forgotten
        // A history with an answer may have gone: the unanswered are counted again.
        if forgotten > 0 { unansweredMayHaveChanged = true }
    }
}
