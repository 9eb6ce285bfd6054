import BeaconAlerting
import BeaconBlueZ
import BeaconCore
import BeaconMQTT
import BeaconSimulator
import BeaconSinks
import BeaconStore
import BeaconStrategies
import Logging

/// Builds the daemon from its configuration: the source, the state store (SQLite with an outbox
/// per sink, or memory), the pipeline, and a sink with its dispatcher for each `sinks:` entry.
/// Nothing runs until ``Gateway/run()``.
///
/// - Parameters:
///   - file: the configuration file's name, for messages.
///   - logger: receives what the daemon has to say (retries, overflow, leftovers), with the
///     sink's name and such as metadata.
/// - Throws: ``GatewayError`` naming what cannot be opened or built.
public func buildGateway(_ configuration: GatewayConfiguration, file: String = "<configuration>",
                         registry: StrategyRegistry = .builtIn(),
                         logger: Logger = Logger(label: "beacond")) throws(GatewayError) -> Gateway {
    guard let sourceDefinition = configuration.source else { throw .noSource(file: file) }
    let metrics = GatewayMetrics()
    let (source, isLive) = try makeSource(sourceDefinition, metrics: metrics, logger: logger)

    var sinks: [(name: String, sink: any AlertSink)] = []
    var observers: [any BeaconStateObserver] = []
    for definition in configuration.sinks {
        do {
            let sink = try makeSink(definition.kind)
            if case .mqtt(let settings) = definition.kind, let mqtt = sink as? MQTTSink {
                observers.append(MQTTBeaconState(sink: mqtt, settings: settings))
            }
            sinks.append((definition.name, MeteredSink(sink, sinkName: definition.name, metrics: metrics)))
        } catch {
            throw .sink(name: definition.name, message: "\(error)")
        }
    }

    let outboxConfiguration = OutboxConfiguration(sinks: sinks.map(\.name), maxBacklog: configuration.maxBacklog)
    let store: any AlertStateStore
    let outbox: any Outbox
    if let path = configuration.statePath {
        do {
            let sqlite = try SQLiteAlertStateStore(path: path, outbox: outboxConfiguration)
            (store, outbox) = (sqlite, sqlite)
        } catch {
            throw .state(path: path, message: "\(error)")
        }
    } else {
        let memory = MemoryOutboxStore(outbox: outboxConfiguration)
        (store, outbox) = (memory, memory.outbox)
        logger.warning("no 'state:' file: alert state and undelivered events are kept in memory and lost on exit")
    }

    let pipeline: AlertPipeline
    do {
        pipeline = try AlertPipeline(configuration: configuration, registry: registry, store: store)
    } catch {
        throw .pipeline(error)
    }
    for warning in pipeline.durabilityWarnings { logger.warning("state: \(warning)") }

    pipeline.recordsPresence = !observers.isEmpty
    let dispatchers = sinks.map { name, sink in
        (name: name, dispatcher: OutboxDispatcher(sinkName: name, sink: sink, outbox: outbox, report: { report in
            var logger = logger
            logger[metadataKey: "sink"] = "\(name)"
            switch report {
            case .delivered(let count, let backlog):
                logger.debug("delivered", metadata: ["count": "\(count)", "backlog": "\(backlog)"])
            case .retrying(let attempt, let delay, let error):
                logger.warning("sink '\(name)': delivery failed (\(error)); retry \(attempt) in \(delay)",
                               metadata: ["attempt": "\(attempt)", "delay": "\(delay)"])
            case .overflow(let dropped, let total):
                metrics.recordOverflow(sink: name, dropped: dropped)
                logger.error("sink '\(name)': backlog full (maxBacklog \(configuration.maxBacklog)): \(dropped) events dropped, \(total) in all",
                             metadata: ["dropped": "\(dropped)", "total": "\(total)"])
            case .storageFailed(let error):
                logger.error("sink '\(name)': outbox unreadable: \(error)")
            }
        }))
    }
    var remote: RemoteAlertDefinitions?
    if var remoteConfiguration = configuration.remoteAlerts {
        // Keep the last good document next to the state file, so a restart without network has it.
        if remoteConfiguration.cachePath == nil, let state = configuration.statePath {
            remoteConfiguration.cachePath = state + ".alerts.yaml"
        }
        let rangingConfiguration = configuration.ranging
        let maxPending = configuration.maxPending
        remote = RemoteAlertDefinitions(configuration: remoteConfiguration, fetcher: HTTPConfigurationFetcher(),
                                        validate: { definitions in
            _ = try AlertPipeline(configuration: GatewayConfiguration(alerts: definitions, maxPending: maxPending,
                                                                      ranging: rangingConfiguration),
                                  registry: registry)
        })
    }
    return Gateway(configuration: configuration, source: source, isLive: isLive, pipeline: LockedPipeline(pipeline),
                   remoteAlerts: remote, registry: registry, sinks: dispatchers, outbox: outbox, metrics: metrics,
                   stateObservers: observers, logger: logger)
}

private func makeSource(_ definition: SourceDefinition, metrics: GatewayMetrics,
                        logger: Logger) throws(GatewayError) -> (any AdvertisementSource, Bool) {
    switch definition {
    case .simulate(let path, let speed):
        do {
            let scenario = try Scenario.load(path: path)
            return (Simulation(scenario: scenario, speed: speed.map(SimulationSpeed.factor) ?? .max), false)
        } catch {
            throw .source("\(error)")
        }
    case .replay(let path, let speed):
        do {
            return (try CaptureReplaySource(path: path, speed: speed), false)
        } catch {
            throw .source("\(path): \(error)")
        }
    case .hci(let radio):
        do {
            let configuration = try radio.scannerConfiguration()
            let scanner = BlueZScanner(configuration: configuration, clock: WallClock()) { event in
                metrics.record(event)
                switch event.level {
                case .info: logger.info("\(event)", metadata: ["component": "scanner"])
                case .warning: logger.warning("\(event)", metadata: ["component": "scanner"])
                case .error: logger.error("\(event)", metadata: ["component": "scanner"])
                }
            }
            guard let record = radio.record else { return (scanner, true) }
            return (try RecordingSource(scanner, path: record), true)
        } catch {
            throw .source("\(error)")
        }
    }
}

private func makeSink(_ kind: SinkDefinition.Kind) throws -> any AlertSink {
    switch kind {
    case .jsonl(let path): try JSONLinesSink(path: path)
    case .webhook(let url, let secret, let timeout): try WebhookSink(url: url, secret: secret, timeout: timeout)
    case .exec(let command, let timeout): ExecSink(command: command, timeout: timeout)
    case .mqtt(let settings):
        try MQTTSink(host: settings.host, port: settings.port, topic: settings.topic, options: settings.connection,
                     timeout: settings.timeout)
    }
}
