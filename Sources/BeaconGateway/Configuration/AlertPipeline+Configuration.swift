import BeaconAlertEngine
import BeaconPipeline
import BeaconRanging
import BeaconStrategyKit

extension AlertPipeline {
    /// Builds the pipeline a configuration file describes: its alerts, ranging (unless
    /// `ranging` overrides it), vendors' layouts and `maxPending`.
    /// - Throws: `PipelineError` naming the alert whose strategy or policy is invalid.
    public convenience init(
        configuration: GatewayConfiguration, registry: StrategyRegistry,
        ranging: RangingConfiguration? = nil,
        store: any AlertStateStore = InMemoryAlertStateStore()
    ) throws(PipelineError) {
        try self.init(
            alerts: try Self.pipelineAlerts(configuration.alerts), ranging: ranging ?? configuration.ranging,
            layouts: configuration.layouts, maxPending: configuration.maxPending, registry: registry,
            store: store)
    }

    /// Replaces the alert definitions without a restart, as the same method over `PipelineAlert` values.
    public func replaceAlerts(_ definitions: [AlertDefinition], registry: StrategyRegistry) throws(PipelineError) {
        try replaceAlerts(try Self.pipelineAlerts(definitions), registry: registry)
    }

    /// The configuration's alerts as the pipeline runs them.
    static func pipelineAlerts(_ definitions: [AlertDefinition]) throws(PipelineError) -> [PipelineAlert] {
        var alerts: [PipelineAlert] = []
        for definition in definitions {
            do {
                alerts.append(try definition.pipelineAlert())
            } catch {
                throw .strategy(alertID: definition.id, message: "\(error)")
            }
        }
        return alerts
    }
}
