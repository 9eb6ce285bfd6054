import BeaconAlertEngine
import BeaconPipeline
import BeaconRanging
import BeaconSite
import BeaconStrategyKit

extension AlertPipeline {
    /// Builds the pipeline a configuration file describes: its alerts, ranging (unless
    /// `ranging` overrides it), vendors' layouts and `maxPending` — and, for a site hub
    /// (`source: hub`), the fusion of its gateways in place of ranging.
    /// - Throws: `PipelineError` naming the alert whose strategy or policy is invalid.
    public convenience init(
        configuration: GatewayConfiguration, registry: StrategyRegistry,
        ranging: RangingConfiguration? = nil,
        store: any AlertStateStore = InMemoryAlertStateStore()
    ) throws(PipelineError) {
        let front: PipelineFront
        if configuration.source == .hub, let hub = configuration.hub {
            do {
                front = .site(try SiteFusion(layout: hub.layout, configuration: hub.fusion))
            } catch {
                throw .ranging("hub: \(error)")
            }
        } else {
            let packets = try PacketRanging(
                configuration: ranging ?? configuration.ranging, layouts: configuration.layouts,
                devices: configuration.devices)
            front = .packets(packets)
        }
        do {
            try self.init(
                alerts: try Self.pipelineAlerts(configuration.alerts), front: front,
                maxPending: configuration.maxPending, registry: registry, store: store)
        } catch {
            throw error.located(in: configuration.alerts)
        }
        beacons = configuration.beacons
        people = configuration.people
    }

    /// Replaces the alert definitions without a restart, as the same method over `PipelineAlert` values.
    public func replaceAlerts(_ definitions: [AlertDefinition], registry: StrategyRegistry) throws(PipelineError) {
        do {
            try replaceAlerts(try Self.pipelineAlerts(definitions), registry: registry)
        } catch {
            throw error.located(in: definitions)
        }
    }

    /// The configuration's alerts as the pipeline runs them.
    package static func pipelineAlerts(_ definitions: [AlertDefinition]) throws(PipelineError) -> [PipelineAlert] {
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

extension GatewayConfiguration {
    /// The configuration's alerts as a pipeline runs them (for pipelines built by hand: a site replay's hub).
    public func pipelineAlerts() throws(PipelineError) -> [PipelineAlert] {
        try AlertPipeline.pipelineAlerts(alerts)
    }
}

extension PipelineError {
    /// The error with the place its alert was written (`file:line: `), when it is about an alert
    /// of `definitions` and does not say where already (a region its strategy names, say).
    func located(in definitions: [AlertDefinition]) -> PipelineError {
        guard case .strategy(let alertID, let message) = self,
            let place = definitions.first(where: { $0.id == alertID })?.place, !message.hasPrefix(place)
        else { return self }
        return .strategy(alertID: alertID, message: "\(place): \(message)")
    }
}
