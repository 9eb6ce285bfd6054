import BeaconCore

extension EngineStep {
    /// Cancels every pending alert whose `cancelOn` matches `fact`.
    mutating func cancel(matching fact: EngineFact, now: Timestamp) {
        switch fact {
        case .alertDelivered(let alertID, _):
            // Checked before the set is hashed into: most configurations watch no delivery.
            guard !configuration.watchedDeliveries.isEmpty, configuration.watchedDeliveries.contains(alertID) else { return }
        default: guard configuration.hasFactCancellations else { return }
        }
        let matching = state.pending.values.filter { alert in
            configuration.rules[alert.key.alertID]?.policy.cancelOn.contains { $0.matches(fact, key: alert.key) } ?? false
        }
        for alert in matching.sorted(by: { $0.key < $1.key }) {
            let rule = configuration.rules[alert.key.alertID]
            record(.removePending(alert.key))
            emitCancelled(alert, rule: rule, now: now, messages: [fact.description])
        }
    }
}
