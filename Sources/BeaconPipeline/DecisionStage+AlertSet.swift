import BeaconAlertEngine
import BeaconStrategyKit

extension DecisionStage {
    /// Replaces the alert definitions (see `AlertPipeline.replaceAlerts(_:registry:)`).
    func replaceAlerts(_ definitions: [PipelineAlert], registry: StrategyRegistry) throws(PipelineError) {
        let configured = try Self.configure(definitions, registry: registry, reusing: alerts)
        let replacement: AlertEngine
        do {
            let rules = try AlertEngineConfiguration(rules: definitions.map(\.rule), maxPending: maxPending)
            // Between inputs everything is committed: the state carries over as it is stored.
            replacement = AlertEngine(configuration: rules, state: engine.state)
        } catch {
            throw .engine("\(error)")
        }
        if store.keepsStrategyState {
            // A strategy made anew starts afresh, and a removed alert keeps nothing: their saved
            // state is stale.
            for alert in alerts where !configured.contains(where: { $0.definition.id == alert.definition.id }) {
                pendingStrategyChanges.append(.removeStrategyStates(alertID: alert.definition.id))
            }
            for alert in configured where !alerts.contains(where: { $0.strategy === alert.strategy }) {
                pendingStrategyChanges.append(.removeStrategyStates(alertID: alert.definition.id))
            }
        }
        self.registry = registry
        let previous = Set(alerts.map(\.definition.id))
        alerts = configured
        engine = replacement
        unansweredMayHaveChanged = true
        // An alert added now starts for the first time; one that was running goes on.
        firstStarts.watch(
            engine.configuration.quietAtFirstStart.filter { !previous.contains($0) }, unknownTo: engine.state)
    }

    static func configure(
        _ definitions: [PipelineAlert], registry: StrategyRegistry,
        reusing current: [ConfiguredAlert]
    ) throws(PipelineError) -> [ConfiguredAlert] {
        var alerts: [ConfiguredAlert] = []
        for definition in definitions {
            if let same = current.first(where: { $0.definition.isSameStrategy(as: definition) }) {
                alerts.append(ConfiguredAlert(definition: definition, strategy: same.strategy))
                continue
            }
            do {
                let strategy = try registry.makeStrategy(key: definition.strategy, parameters: definition.parameters)
                alerts.append(ConfiguredAlert(definition: definition, strategy: strategy))
            } catch {
                let place = definition.origin.map { "\($0): " } ?? ""
                throw .strategy(alertID: definition.id, message: place + "\(error)")
            }
        }
        return alerts
    }
}
