import BeaconAlertEngine
import BeaconControl
import BeaconDaemonConfiguration
import BeaconPipeline
import BeaconSinks
import Logging

extension Gateway {
    /// Builds each `sinks:` entry, metered (its deliveries counted, logged in `log` and timed by
    /// `alertLatency`), and the beacon-state observers some of them bring (Home Assistant's), each
    /// note of theirs logged.
    /// - Throws: ``GatewayError/sink(name:message:)`` naming the sink that cannot be built.
    static func makeSinks(
        _ definitions: [SinkDefinition], metrics: GatewayMetrics, log: AlertLog, alertLatency: AlertLatency?,
        logger: Logger
    ) throws(GatewayError) -> (sinks: [(name: String, sink: any AlertSink)], observers: [any BeaconStateObserver]) {
        var sinks: [(name: String, sink: any AlertSink)] = []
        var observers: [any BeaconStateObserver] = []
        for definition in definitions {
            do {
                let built = try definition.settings.makeSink()
                if let observer = built.stateObserver {
                    observers.append(observer)
                    for note in observer.notes { logger.notice("sink '\(definition.name)': \(note)") }
                }
                let metered = MeteredSink(
                    built.sink, sinkName: definition.name, metrics: metrics, log: log, alertLatency: alertLatency)
                sinks.append((definition.name, metered))
            } catch {
                throw .sink(name: definition.name, message: "\(error)")
            }
        }
        return (sinks, observers)
    }
}
