import BeaconAlertEngine
import BeaconBlueZ
import BeaconControl
import BeaconCore
import BeaconDaemonConfiguration
import BeaconForeignNodes
import BeaconMQTT
import BeaconPipeline
import BeaconSimulator
import BeaconSinks
import BeaconSite
import BeaconSiteLink
import BeaconSiteReport
import BeaconStore
import BeaconStrategies
import BeaconStrategyKit
import FoundationEssentials
import Logging

/// Builds the daemon from its configuration: the source, the state store (SQLite with an outbox
/// per sink, or memory), the pipeline, and a sink with its dispatcher for each `sinks:` entry.
/// Nothing runs until the gateway's ``Gateway/services`` run.
///
/// - Parameters:
///   - configuration: the daemon's configuration, read and checked.
///   - file: the configuration file's name, for messages.
///   - registry: where the alerts' strategies come from.
///   - clock: the daemon's time: a live source's tick, posted events and remote checks (a
///     `ManualClock` in tests; a radio still stamps its packets with the wall clock).
///   - logger: receives what the daemon has to say (retries, overflow, leftovers), with the
///     sink's name and such as metadata.
/// - Throws: ``GatewayError`` naming what cannot be opened or built.
public func buildGateway(
    _ configuration: GatewayConfiguration, file: String = "<configuration>",
    registry: StrategyRegistry = .builtIn(), clock: AnyTimestampClock = .wall,
    logger: Logger = Logger(label: "beacond")
) throws(GatewayError) -> Gateway {
    guard let sourceDefinition = configuration.source else { throw .noSource(file: file) }
    let metrics = GatewayMetrics()
    if sourceDefinition == .hub, let site = configuration.site, let hub = configuration.hub {
        let foreignNodes: [ForeignGatewayNode]
        do {
            foreignNodes = try hub.makeForeignNodes(devices: configuration.devices)
        } catch {
            throw .source("the hub's foreign nodes: \(error)")
        }
        let subscription = SiteSubscription(
            settings: site, buckets: hub.buckets(of: site.topics.bucketCount), hubIndex: hub.partition.index,
            takeoverID: hub.takeover?.id, foreignNodes: foreignNodes, logger: logger)
        return try buildGateway(
            configuration, feed: .site(subscription), registry: registry, clock: clock, metrics: metrics, logger: logger)
    }
    let (source, isLive) = try makeSource(
        sourceDefinition, site: configuration.site, recordingRetention: configuration.retention.recordings, clock: clock,
        metrics: metrics, logger: logger)
    return try buildGateway(
        configuration, feed: .advertisements(source, isLive: isLive), resume: sourceDefinition.resumes,
        registry: registry, clock: clock, metrics: metrics, logger: logger)
}

/// Builds the daemon around a source of the caller's (an embedding application's, a test's),
/// ignoring the configuration's `source:`.
/// - Parameters:
///   - configuration: the daemon's configuration, read and checked.
///   - source: where the advertisements come from.
///   - isLive: true for a source on real time (a radio): the pipeline is ticked every second on
///     `clock` and posted events happen at `clock`'s time; false for a source with its own time
///     (a replay, a simulation), whose latest packet time posted events use.
///   - registry: where the alerts' strategies come from.
///   - clock: the daemon's time (see the other `buildGateway`).
///   - metrics: the daemon's metrics.
///   - logger: receives what the daemon has to say.
/// - Throws: ``GatewayError`` naming what cannot be opened or built.
public func buildGateway(
    _ configuration: GatewayConfiguration, source: any AdvertisementSource, isLive: Bool,
    registry: StrategyRegistry = .builtIn(), clock: AnyTimestampClock = .wall,
    metrics: GatewayMetrics = GatewayMetrics(),
    logger: Logger = Logger(label: "beacond")
) throws(GatewayError) -> Gateway {
    try buildGateway(
        configuration, feed: .advertisements(source, isLive: isLive), registry: registry, clock: clock, metrics: metrics,
        logger: logger)
}

/// `resume`: a source with a time of its own starts where the saved state ends.
func buildGateway(
    _ configuration: GatewayConfiguration, feed: GatewayFeed, resume: Bool = false, registry: StrategyRegistry,
    clock: AnyTimestampClock, metrics: GatewayMetrics, logger: Logger
) throws(GatewayError) -> Gateway {
    var feed = feed
    let alertLog = AlertLog(sinks: configuration.sinks.map(\.name))
    // Advertisement-to-sink latency: measured when the feed's time is the clock's.
    let alertLatency =
        feed.isLive
        ? AlertLatency(
            sinks: configuration.sinks.map(\.name), metrics: metrics, objective: configuration.latency, clock: clock,
            logger: logger)
        : nil
    if configuration.latency != nil, alertLatency == nil {
        logger.warning(
            "latency: is not checked: the source runs on a time of its own (a replay, a paced simulation), which a sink's moment cannot be compared with; it is checked with a radio, speed: wall or a hub"
        )
    }
    let (sinks, observers) = try Gateway.makeSinks(
        configuration.sinks, metrics: metrics, log: alertLog, alertLatency: alertLatency, logger: logger)

    let outboxConfiguration = OutboxConfiguration(
        sinks: sinks.map(\.name), maxBacklog: configuration.maxBacklog, escalationSinks: configuration.escalationSinks)
    let (store, outbox) = try openStateStore(configuration.statePath, outbox: outboxConfiguration, logger: logger)

    // Filled once the dispatchers exist: a dead letter's notice wakes the other sinks' dispatchers
    // (and a hub's gateway events wake them all).
    let notified = DispatcherDirectory()
    let pipeline: AlertPipeline
    do {
        pipeline = try AlertPipeline(configuration: configuration, registry: registry, store: store)
    } catch {
        throw .pipeline(error)
    }
    for warning in pipeline.durabilityWarnings { logger.warning("state: \(warning)") }
    if let path = configuration.shadowPath {
        do {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let alerts = try Gateway.candidateAlerts(text, name: path, configuration: configuration)
            let shadow = try pipeline.attachShadow(alerts: alerts, registry: registry, comparedAs: path)
            shadow.onEvent = Gateway.shadowLog(logger)
            logger.notice("shadow \(path): \(alerts.map(\.id).joined(separator: ", ")) run beside the live alerts")
        } catch {
            throw .shadow(path: path, message: "\(error)")
        }
    }
    if resume, case .advertisements(let source as any ResumableSource, let isLive) = feed,
        let savedThrough = pipeline.decidedThrough
    {
        feed = .advertisements(source.resuming(from: savedThrough), isLive: isLive)
        let advice = "what lies before is skipped; delete the state file or set resume: false to start over"
        logger.notice("resuming \(source.name) at \(savedThrough.rfc3339String), where the saved state ends (\(advice))")
    }
    let sinkNames = sinks.map(\.name)
    // A hub of a share with takeover delivers what the broker holds as its claims (its notices too).
    let lease = makeHubLease(configuration, feed: feed, outbox: outbox, sinks: sinkNames, notified: notified, logger: logger)
    let notices = NoticeWriter(outbox: outbox, lease: lease, notified: notified, logger: logger)
    let readiness = GatewayReadiness.make(configuration, feed: feed, logger: logger)
    if let site = configuration.site, let endpoint = site.publishAs, case .advertisements(let source, let isLive) = feed {
        // A stand-in for an ESPresense node: what it hears goes to the broker as the node's messages.
        do {
            let publisher = try ESPresenseNodePublisher(
                settings: site, endpoint: endpoint, connected: { readiness.met(GatewayReadiness.siteBroker) })
            feed = .advertisements(ESPresensePublishingSource(source: source, publisher: publisher), isLive: isLive)
            logger.info(
                "publishing every beacon heard as ESPresense node '\(endpoint.name)' (\(endpoint.prefix)/devices/<id>/\(endpoint.name)) via \(site.host):\(site.port)"
            )
        } catch {
            throw .source("site: \(error)")
        }
    } else if let site = configuration.site, case .advertisements = feed {
        // A gateway of a site: each cycle's records go to the site's broker too, and an empty
        // report to every other bucket (a heartbeat, sent alone while nothing is tracked).
        do {
            let publisher = try SitePublisher(
                settings: site, cycleLength: pipeline.cycleLength, logger: logger,
                connected: { readiness.met(GatewayReadiness.siteBroker) })
            pipeline.cycleObserver = { update in publisher.publish(update) }
            pipeline.cycleClockObserver = { cycleEnd in publisher.heartbeat(cycleEnd: cycleEnd) }
            logger.info(
                "publishing each cycle to site '\(site.topics.site)' as gateway '\(site.gateway)' via \(site.host):\(site.port)")
        } catch {
            throw .source("site: \(error)")
        }
    } else if feed.isHub, let hub = configuration.hub {
        let observers = try hubCycleObservers(
            pipeline, hub: hub, statePath: configuration.statePath, sinks: sinkNames,
            presenceRetention: configuration.retention.presence, logger: logger)
        // The gateways' notices, once written with their cycle's alerts.
        pipeline.noticesCommitted = { written in notices.written(written.map(\.key), to: sinkNames) }
        if !observers.isEmpty {
            do {
                try pipeline.observeSiteCycles(evidence: hub.presencePath != nil) { update, facts in
                    for observer in observers { observer(update, facts) }
                }
            } catch {
                throw .pipeline(error)
            }
        }
    }

    applyRetention(configuration.retention, to: pipeline, outbox: outbox, logger: logger)

    let dispatchers = sinks.map { name, sink in
        (
            name: name,
            dispatcher: OutboxDispatcher(
                sinkName: name, sink: sink, outbox: lease.map { HeldOutbox(outbox, lease: $0) } ?? outbox, clock: clock,
                report: { report in
                    var logger = logger
                    logger[metadataKey: "sink"] = "\(name)"
                    switch report {
                    case .delivered(let count, let backlog):
                        logger.debug("delivered", metadata: ["count": "\(count)", "backlog": "\(backlog)"])
                    case .retrying(let attempt, let delay, let error):
                        logger.warning(
                            "sink '\(name)': delivery failed (\(error)); retry \(attempt) in \(delay.approximate)",
                            metadata: ["attempt": "\(attempt)", "delay": "\(delay.approximate)"])
                    case .overflow(let spilled, let total):
                        metrics.recordOverflow(sink: name, spilled: spilled)
                        logger.error(
                            "sink '\(name)': backlog full (maxBacklog \(configuration.maxBacklog)): \(spilled) events kept among its dead letters without an attempt, \(total) in all; `beacond outbox retry` sends them once the sink is back",
                            metadata: ["spilled": "\(spilled)", "total": "\(total)"])
                    case .storageFailed(let error):
                        logger.error("sink '\(name)': outbox unreadable: \(error)")
                    case .deadLetterNoticed(let notice):
                        notices.written([notice.key], to: notice.sinks) // written with the move, below
                    case .deadLettered(let event, let attempts, let error):
                        let key = event.key
                        metrics.recordDeadLetter(sink: name)
                        // A spilled event's notice (the spill was the alert's own write): the other
                        // sinks hear of it, as an `error` lifecycle event. One given up on after
                        // attempts had its notice written with its move.
                        let others = sinkNames.filter { $0 != name }
                        if attempts == 0, !others.isEmpty,
                            let notice = DeadLetterNotice.event(
                                for: event, sink: name, attempts: attempts, error: error, at: clock.now)
                        {
                            notices.write([notice], to: others, what: "sink '\(name)': the notice of a dead letter")
                        }
                        guard attempts > 0 else {
                            // Spilled by a full backlog: the overflow report said so, once for all.
                            logger.debug("sink '\(name)': spilled event \(key)", metadata: ["event": "\(key)"])
                            return
                        }
                        let advice =
                            "it is kept among the dead letters: `beacond outbox list --config FILE` shows them, "
                            + "`retry` sends them again, `drop` forgets them"
                        logger.error(
                            "sink '\(name)': gave up on event \(key) after \(attempts) attempt(s) (\(error)); \(advice)",
                            metadata: ["event": "\(key)", "attempts": "\(attempts)"])
                    }
                },
                deadLetterNotice: { event, attempts, error in
                    // The other sinks hear of it, as an `error` lifecycle event, written with the move.
                    let others = sinkNames.filter { $0 != name }
                    guard !others.isEmpty,
                        let notice = DeadLetterNotice.event(
                            for: event, sink: name, attempts: attempts, error: error, at: clock.now)
                    else { return nil }
                    return OutboundNotice(key: notice.key, body: notice.body, sinks: others)
                })
        )
    }
    notified.register(dispatchers.map { ($0.name, $0.dispatcher) })
    alertLatency?.onObjectiveChange { change in
        // Every sink hears of it, through the outbox like the rest (at least once).
        logger.log(level: change.missed ? .warning : .notice, "latency: \(LatencyNotice.message(for: change))")
        notices.write([LatencyNotice.event(for: change)], to: sinkNames, what: "latency: the objective's event")
    }
    var remote: RemoteAlertDefinitions?
    let remoteChecks = RemoteCheckBoard()
    if var remoteConfiguration = configuration.remoteAlerts {
        // Keep the last good document next to the state file, so a restart without network has it.
        if remoteConfiguration.cachePath == nil, let state = configuration.statePath {
            remoteConfiguration.cachePath = state + ".alerts.yaml"
        }
        let rangingConfiguration = configuration.ranging
        let maxPending = configuration.maxPending
        let sendsCallbacks = configuration.sinks.contains { $0.settings.sendsCallbacks }
        let (url, environment) = (remoteConfiguration.url, remoteConfiguration.environment)
        remote = RemoteAlertDefinitions(
            configuration: remoteConfiguration, fetcher: HTTPConfigurationFetcher(),
            validate: { definitions in
                try RemoteCallbackCheck.check(definitions, sinksSendCallbacks: sendsCallbacks)
                _ = try AlertPipeline(
                    configuration: GatewayConfiguration(
                        alerts: definitions, maxPending: maxPending,
                        ranging: rangingConfiguration),
                    registry: registry)
            },
            report: { outcome, time in
                // A failed check: every sink hears of it (through the outbox, at least once), the
                // metrics count it, the page shows it.
                let lastSuccess = remoteChecks.status?.lastSuccess
                remoteChecks.record(
                    url: url, environment: environment, time: time, outcome: outcome.name, failure: outcome.failure)
                metrics.countRemoteCheck(outcome: outcome.name)
                if let event = RemoteAlertsNotice.event(
                    for: outcome, url: url, environment: environment, lastSuccess: lastSuccess, at: time)
                {
                    notices.write([event], to: sinkNames, what: "remote alerts: the failed check's event")
                }
            })
    }
    return Gateway(
        configuration: configuration, feed: feed, pipeline: pipeline,
        remoteAlerts: remote, remoteChecks: remoteChecks, registry: registry, sinks: dispatchers, outbox: outbox,
        metrics: metrics,
        stateObservers: observers, alertLog: alertLog, alertLatency: alertLatency, lease: lease, readiness: readiness,
        clock: clock, logger: logger)
}
