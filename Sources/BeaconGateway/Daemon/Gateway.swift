import BeaconAlertEngine
import BeaconControl
import BeaconCore
import BeaconDaemonConfiguration
import BeaconPipeline
import BeaconSinks
import BeaconSiteLink
import BeaconStrategyKit
import Logging
import ServiceLifecycle
import Synchronization

/// The running daemon, as the services of one service group (``services``), each a long-lived
/// part that the group's cancellation reaches:
///
/// | service | does |
/// |---|---|
/// | the source | feeds batches to the pipeline's inbox; a live one also ticks it every second |
/// | remote alerts | checks the remote alert document, applies new sets (if configured) |
/// | the pipeline | the one task that owns the `AlertPipeline` (a `PipelineRunner`) |
/// | one dispatcher per sink | delivers the sink's outbox |
/// | state observers | MQTT retained beacon state: closed last |
/// | hub lease | a hub with `hub.takeover`: its status, the election, the commits (stops after all) |
///
/// The engine writes every event to each sink's outbox in the same transaction as its state;
/// the dispatchers deliver from there. The group shuts down in reverse order: the source stops
/// first; the pipeline handles what is in its inbox; each sink then gets a last attempt (or, when
/// the source ended by itself — a replay, a simulation — delivers the whole backlog); what it did
/// not confirm stays in the outbox for the next start.
///
/// Time comes from the injected clock: the live source's tick, posted events and remote checks.
public final class Gateway: Sendable {
    /// The configuration it was built from.
    public let configuration: GatewayConfiguration
    /// The source's name (`hci0`, `replay:…`, `sim:…`).
    public var sourceName: String { feed.name }
    let feed: GatewayFeed
    var isLive: Bool { feed.isLive }
    /// The owner of the pipeline's state; everything else sends it inputs or reads its snapshot.
    let runner: PipelineRunner
    let pipelineService: PipelineService
    /// Remotely administered alert definitions (`alerts: {url, checkEvery}`), if configured.
    public let remoteAlerts: RemoteAlertDefinitions?
    let registry: StrategyRegistry
    let sinks: [(name: String, dispatcher: OutboxDispatcher)]
    let outbox: any Outbox
    /// The daemon's metrics (served by the `ControlServer` at `/metrics`).
    public let metrics: GatewayMetrics
    let logger: Logger
    let clock: AnyTimestampClock
    let lifecycle: GatewayLifecycle
    /// The latest alert events and their deliveries (the status page's log).
    public let alertLog: AlertLog
    /// What the status page shows, gathered only when someone looks.
    public let statusBoard: StatusBoard
    /// The latest reload of the configuration file (``ConfigurationReloader``), for the page.
    public let reloadBoard: ReloadBoard
    /// The daemon's services, in the order a service group starts them; it stops them in reverse
    /// (source first, sinks last). Add the control endpoint before them, so that it stops last.
    /// The source ending by itself shuts the group down gracefully; a failure anywhere does too,
    /// and the group then throws it.
    public let services: [ServiceGroupConfiguration.ServiceConfiguration]
    /// When the daemon is ready: its source running and, on a site, its broker connected, its
    /// subscriptions acknowledged and its takeover role known. Says so in
    /// the log (`ready: …`) and to systemd (`READY=1`, when `NOTIFY_SOCKET` is set).
    public let readiness: Readiness
    /// The group ``run()`` runs the services in, for ``stop()``.
    private let ownGroup = Mutex<(group: ServiceGroup?, stopRequested: Bool)>((nil, false))

    init(
        configuration: GatewayConfiguration, feed: GatewayFeed,
        pipeline: sending AlertPipeline, remoteAlerts: RemoteAlertDefinitions? = nil,
        remoteChecks: RemoteCheckBoard = RemoteCheckBoard(), registry: StrategyRegistry = StrategyRegistry(),
        sinks: [(name: String, dispatcher: OutboxDispatcher)],
        outbox: any Outbox, metrics: GatewayMetrics, stateObservers: [any BeaconStateObserver] = [],
        alertLog: AlertLog? = nil, alertLatency: AlertLatency? = nil, lease: HubLease? = nil, readiness: Readiness,
        clock: AnyTimestampClock, logger: Logger
    ) {
        self.readiness = readiness
        let alertLog = alertLog ?? AlertLog(sinks: sinks.map(\.name))
        self.alertLog = alertLog
        self.configuration = configuration
        self.feed = feed
        // A hub's refused reports: counted by the fusion, shown in the log (rate-limited).
        let refusals = ReportRefusalLog(logger: logger, clock: clock)
        let runner = PipelineRunner(refusedReport: { refusals.record($0) })
        self.runner = runner
        let lifecycle = GatewayLifecycle()
        self.lifecycle = lifecycle
        let dispatchers = sinks.map(\.dispatcher)
        pipelineService = PipelineService(
            runner: runner, pipeline: pipeline, observers: stateObservers, alertLog: alertLog,
            committed: lease.map { lease in { @Sendable (event: AlertEvent) in lease.committed(key: event.idempotencyKey) } },
            notify: { for dispatcher in dispatchers { dispatcher.notify() } })
        self.sinks = sinks
        self.outbox = outbox
        self.metrics = metrics
        self.logger = logger
        self.remoteAlerts = remoteAlerts
        self.registry = registry
        let reloadBoard = ReloadBoard()
        self.reloadBoard = reloadBoard
        self.clock = clock
        statusBoard = StatusBoard(
            sources: StatusBoard.Sources(
                sourceName: feed.name, inspect: { try await runner.inspect() },
                outbox: { sinks.map { sink in (sink.name, Self.backlog(of: sink.name, in: outbox)) } },
                latency: { alertLatency?.summaries() ?? [] }, remote: { remoteChecks.status },
                reload: { [reloadBoard] in reloadBoard.status },
                broker: {
                    guard case .site(let subscription) = feed else { return nil }
                    let connection = subscription.connection
                    return BrokerStatus(
                        broker: subscription.broker, connected: connection?.connected ?? false, detail: connection?.detail)
                }),
            log: alertLog)
        // The source starts once the remote alert definitions have had their first check.
        let firstCheck = remoteAlerts.map { _ in OneShot<Void>() }
        let remoteService = remoteAlerts.map { remote in
            RemoteAlertsService(
                remote: remote, runner: runner, registry: registry, clock: clock, ready: firstCheck!, logger: logger)
        }
        // Answers over MQTT (an mqtt sink with `commands: true`), at the daemon's time.
        let isLive = feed.isLive
        let commandServices = configuration.sinks.compactMap { $0.settings as? MQTTSinkSettings }.filter(\.commands).map {
            settings in
            MQTTCommandService(settings: settings, clock: clock, logger: logger) { request in
                let now = clock.now
                return try await runner.answer(request, at: isLive ? .at(now) : .pipelineTime(orElse: now))
            }
        }
        services =
            Self.makeServices(
                sinks: sinks, outbox: outbox, observers: stateObservers, pipeline: pipelineService, remote: remoteService,
                source: SourceService(
                    feed: feed, runner: runner, clock: clock, ready: firstCheck, lifecycle: lifecycle,
                    readiness: readiness),
                lifecycle: lifecycle,
                lease: lease.map { HubLeaseService(lease: $0, clock: clock, readiness: readiness) }, logger: logger)
            + commandServices.map { .init(service: $0, failureTerminationBehavior: .gracefullyShutdownGroup) }
    }

    private static func makeServices(
        sinks: [(name: String, dispatcher: OutboxDispatcher)], outbox: any Outbox,
        observers: [any BeaconStateObserver], pipeline: PipelineService, remote: RemoteAlertsService?,
        source: SourceService, lifecycle: GatewayLifecycle, lease: HubLeaseService?, logger: Logger
    ) -> [ServiceGroupConfiguration.ServiceConfiguration] {
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        // A standby hub's lease stops last: it announces the hub's final commits, then `offline`.
        if let lease { services.append(.init(service: lease, failureTerminationBehavior: .gracefullyShutdownGroup)) }
        if !observers.isEmpty { services.append(.init(service: StateObserversService(observers: observers))) }
        services += sinks.map { sink in
            .init(
                service: DispatcherService(
                    name: sink.name, dispatcher: sink.dispatcher, outbox: outbox,
                    lifecycle: lifecycle, logger: logger),
                failureTerminationBehavior: .gracefullyShutdownGroup)
        }
        services.append(.init(service: pipeline, failureTerminationBehavior: .gracefullyShutdownGroup))
        if let remote { services.append(.init(service: remote, failureTerminationBehavior: .gracefullyShutdownGroup)) }
        services.append(
            .init(
                service: source, successTerminationBehavior: .gracefullyShutdownGroup,
                failureTerminationBehavior: .gracefullyShutdownGroup))
        return services
    }

    /// Runs the daemon's ``services`` in a service group of their own until the source ends and
    /// the outboxes are delivered, or until ``stop()``.
    /// - Throws: what ended the source or the pipeline, other than a stop.
    public func run() async throws {
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: logger))
        let stopAlready = ownGroup.withLock { own in
            own.group = group
            return own.stopRequested
        }
        if stopAlready { await group.triggerGracefulShutdown() }
        try await group.run()
        collectMetrics()
    }

    /// Stops the daemon (a signal): the source stops, the pipeline handles what it has, each sink
    /// gets one last attempt, and what it did not confirm stays in the outbox. In a service group
    /// of the caller's, the group's graceful shutdown does the stopping; this makes it a stop
    /// rather than the end of a source. Safe from any thread.
    public func stop() {
        lifecycle.markStopping()
        let group = ownGroup.withLock { own in
            own.stopRequested = true
            return own.group
        }
        // Unstructured on purpose: `stop()` is synchronous (callable from any thread, a signal
        // watcher, a test) and the group's trigger is an actor call; the task only asks the
        // group to begin its graceful shutdown and ends at once.
        if let group { Task { await group.triggerGracefulShutdown() } }
    }

    /// The pipeline as of its latest input.
    public var pipelineSnapshot: PipelineSnapshot { runner.snapshot }

    /// What the pipeline has processed so far (as of its latest input).
    public var statistics: PipelineStatistics { runner.snapshot.statistics }

    /// Events waiting in a sink's outbox (0 if the outbox cannot be read).
    private func backlog(of sink: String) -> Int { Self.backlog(of: sink, in: outbox) }

    private static func backlog(of sink: String, in outbox: any Outbox) -> Int {
        (try? outbox.backlog(sink: sink)) ?? 0
    }

    /// Brings the metrics up to date with the pipeline's counters and the outboxes' depths.
    public func collectMetrics() {
        var backlogs: [String: Int] = [:]
        for sink in sinks { backlogs[sink.name] = backlog(of: sink.name) }
        let snapshot = runner.snapshot
        metrics.collect(
            snapshot.statistics, trackedBeacons: snapshot.trackedBeacons, backlogs: backlogs, now: clock.now)
        if case .site(let subscription) = feed { metrics.collectQueueDrops(total: subscription.dropped) }
    }

    /// Posts a named event to the running pipeline, for one beacon or all (`beacon == nil`): the
    /// pending alerts whose `cancelOn` names it are cancelled, their events go to the sinks.
    ///
    /// It happens at the clock's time for a radio, and at the pipeline's latest time for a
    /// replay or a simulation (whose time is their own).
    public func post(event name: String, beacon: BeaconID?) async throws -> ExternalEventReceipt {
        let now = clock.now
        let receipt = try await runner.post(
            .external(name: name, beacon: beacon),
            at: isLive ? .at(now) : .pipelineTime(orElse: now))
        let cancelled = receipt.events.count { $0.kind == .cancelled }
        metrics.recordExternalEvent(name: name)
        logger.info(
            "event posted",
            metadata: [
                "event": "\(name)", "beacon": "\(beacon.map { "\($0)" } ?? "all")",
                "cancelled": "\(cancelled)",
            ])
        return ExternalEventReceipt(name: name, beacon: beacon, time: receipt.time, cancelled: cancelled)
    }

    /// Hands the pipeline an answer to a delivered alert (acknowledge, dismiss, lift a
    /// suppression) at the daemon's time, and logs what it did.
    /// - Throws: the `AlertAnswerError` that says why it was not taken, or what stopped the pipeline.
    public func answer(_ request: AlertAnswerRequest) async throws -> AlertAnswerOutcome {
        let now = clock.now
        let outcome = try await runner.answer(request, at: isLive ? .at(now) : .pipelineTime(orElse: now))
        switch (request, outcome) {
        case (.answer(let kind, let instance, let by, _), .answered(let receipt)):
            logger.info(
                "alert \(kind.rawValue)",
                metadata: ["instance": "\(instance)", "by": "\(by)", "repeated": "\(receipt.repeated)"])
        case (.answerLatest(let kind, let beacon, _, let by, _), .answered(let receipt)):
            logger.info(
                "alert \(kind.rawValue)",
                metadata: [
                    "instance": "\(receipt.instance)", "beacon": "\(beacon)", "by": "\(by)", "repeated": "\(receipt.repeated)",
                ])
        case (.liftSuppression(let key), .lifted(let lifted)):
            logger.info(
                "suppression lifted", metadata: ["alert": "\(key.alertID)", "beacon": "\(key.beacon)", "lifted": "\(lifted)"])
        default:
            break
        }
        return outcome
    }

    /// The control endpoint's routes for this gateway: metrics, health, posted events, and the
    /// status page with its API.
    public var controlRoutes: ControlRoutes {
        ControlRoutes(
            metrics: { [self] in
                collectMetrics()
                return metrics.render()
            },
            health: { [self] in
                var json = JSONWriter()
                json.object { object in
                    object.member("status", lifecycle.stopping ? "stopping" : "ok")
                    object.member("source", sourceName)
                    object.member("beaconsTracked", runner.snapshot.trackedBeacons)
                    object.key("outbox")
                    object.object { outbox in
                        for sink in sinks { outbox.member(sink.name, backlog(of: sink.name)) }
                    }
                }
                return json.string
            },
            postEvent: { [self] name, beacon in
                try await post(event: name, beacon: beacon)
            },
            answer: { [self] request in try await answer(request) },
            shadow: { [self] command in try await shadow(command) },
            bearerToken: configuration.control?.token,
            status: StatusRoutes(board: statusBoard, floorPlan: configuration.hub?.floorPlan))
    }
}
