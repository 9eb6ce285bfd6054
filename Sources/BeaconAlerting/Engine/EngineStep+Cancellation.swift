import BeaconCore

extension EngineStep {
    /// Cancels every pending alert whose `cancelOn` matches `fact`.
    mutating func cancel(matching fact: EngineFact, now: Timestamp) {
        for alert in state.pending.values.sorted(by: { $0.key < $1.key }) {
            guard let rule = configuration.rules[alert.key.alertID],
                  rule.policy.cancelOn.contains(where: { $0.matches(fact, key: alert.key) }) else { continue }
            record(.removePending(alert.key))
            emit(.cancelled, key: alert.key, strategy: alert.strategy, rule: rule, now: now, scheduledFor: alert.dueAt,
                 messages: [fact.description])
        }
    }
}
