import BeaconAlertEngine
import BeaconCore
import BeaconStrategyKit

/// The strategies' per-beacon state, saved with the engine's (see `AlertPipeline`).
extension DecisionStage {
    /// Restores every alert's strategy from the saved state its engine loaded. A state saved by
    /// another kind of strategy, or by an alert that no longer exists, is removed; one that
    /// cannot be read makes that alert's strategy start afresh (and says so in
    /// `durabilityWarnings`). Strategies whose state is not (fully) saved are named there too.
    func restoreStrategies() {
        if let clock = engine.state.strategyClock { decidedThrough = clock }
        var byAlert: [String: [SavedStrategyState]] = [:]
        for saved in engine.state.strategyStates.values { byAlert[saved.key.alertID, default: []].append(saved) }
        for (index, alert) in alerts.enumerated() {
            if case .incomplete(let reason) = alert.strategy.stateDurability {
                durabilityWarnings.append("alert '\(alert.definition.id)': \(reason)")
            }
            guard let saved = byAlert.removeValue(forKey: alert.definition.id) else { continue }
            let key = alert.strategy.key
            guard saved.allSatisfy({ $0.strategy == key }) else {
                pendingStrategyChanges.append(.removeStrategyStates(alertID: alert.definition.id))
                continue
            }
            let entries = saved.sorted { $0.key < $1.key }.map { state in
                StrategyStateEntry(part: state.key.part, beacon: state.key.beacon, state: state.state)
            }
            do {
                try alert.strategy.restoreState(entries)
            } catch {
                durabilityWarnings.append("alert '\(alert.definition.id)': \(error)")
                pendingStrategyChanges.append(.removeStrategyStates(alertID: alert.definition.id))
                if let fresh = try? Self.configure([alert.definition], registry: registry, reusing: []).first {
                    alerts[index] = fresh
                }
            }
        }
        for alertID in byAlert.keys.sorted() { pendingStrategyChanges.append(.removeStrategyStates(alertID: alertID)) }
    }

    /// The strategies' changes since the last input, as store changes (none when the store does
    /// not keep them).
    func collectStrategyChanges() -> [AlertStateChange] {
        guard store.keepsStrategyState else { return [] }
        var changes = pendingStrategyChanges
        pendingStrategyChanges.removeAll()
        var entries: [StrategyStateEntry] = []
        for alert in alerts {
            entries.removeAll(keepingCapacity: true)
            alert.strategy.collectStateChanges(into: &entries)
            let alertID = alert.definition.id
            let strategy = alert.strategy.key
            for entry in entries {
                let key = SavedStrategyState.Key(alertID: alertID, part: entry.part, beacon: entry.beacon)
                if let state = entry.state {
                    changes.append(.putStrategyState(SavedStrategyState(key: key, strategy: strategy, state: state)))
                } else {
                    changes.append(.removeStrategyState(key))
                }
            }
        }
        if !changes.isEmpty, let clock = decidedThrough { changes.append(.putStrategyClock(clock)) }
        return changes
    }

    /// After a write the store refused: the engine and the strategies go back to what is stored
    /// (the input that failed is as if it never happened).
    func reloadAfterFailedCommit() {
        guard let reloaded = try? AlertEngine(configuration: engine.configuration, loadingFrom: store) else { return }
        engine = reloaded
        unansweredMayHaveChanged = true
        pendingStrategyChanges.removeAll()
        guard store.keepsStrategyState,
            let fresh = try? Self.configure(alerts.map(\.definition), registry: registry, reusing: [])
        else { return }
        alerts = fresh
        durabilityWarnings.removeAll()
        restoreStrategies()
    }
}
