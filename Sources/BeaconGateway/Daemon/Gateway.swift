import BeaconAlerting
import BeaconBlueZ
import BeaconCore
import BeaconSinks
import Logging
import ServiceLifecycle
import Synchronization

/// The running daemon: a source feeding the pipeline, whose engine writes every event to each
/// sink's outbox in the same transaction as its state; one ``OutboxDispatcher`` per sink
/// delivers from there.
///
/// Shutdown order (``stop()``): the source stops first; the pipeline has nothing left in flight
/// (its events are in the outbox as soon as they exist); each sink then gets a last attempt and
/// is flushed; what it did not confirm stays in the outbox for the next start. A source that ends
/// by itself (a replay, a simulation) is followed by delivery of the whole backlog.
///
/// It is a swift-service-lifecycle `Service`: in a `ServiceGroup`, graceful shutdown (SIGTERM,
/// SIGINT) calls ``stop()``.
public final class Gateway: Service, Sendable {
    private struct Control {
        var stopping = false
        var sourceTask: Task<Void, any Error>?
    }

    /// The configuration it was built from.
    public let configuration: GatewayConfiguration
    /// The source's name (`hci0`, `replay:…`, `sim:…`).
    public var sourceName: String { source.name }
    let source: any AdvertisementSource
    let isLive: Bool
    let pipeline: LockedPipeline
    /// Remotely administered alert definitions (`alerts: {url, checkEvery}`), if configured.
    let remoteAlerts: RemoteAlertDefinitions?
    let registry: StrategyRegistry
    let sinks: [(name: String, dispatcher: OutboxDispatcher)]
    let outbox: any Outbox
    /// The daemon's metrics (served by the ``ControlServer`` at `/metrics`).
    public let metrics: GatewayMetrics
    let logger: Logger
    let stateObservers: [any BeaconStateObserver]
    private let control = Mutex(Control())

    init(configuration: GatewayConfiguration, source: any AdvertisementSource, isLive: Bool, pipeline: LockedPipeline,
         remoteAlerts: RemoteAlertDefinitions? = nil, registry: StrategyRegistry = StrategyRegistry(),
         sinks: [(name: String, dispatcher: OutboxDispatcher)], outbox: any Outbox, metrics: GatewayMetrics,
         stateObservers: [any BeaconStateObserver] = [], logger: Logger) {
        self.configuration = configuration
        self.source = source
        self.isLive = isLive
        self.pipeline = pipeline
        self.sinks = sinks
        self.outbox = outbox
        self.metrics = metrics
        self.stateObservers = stateObservers
        self.logger = logger
        self.remoteAlerts = remoteAlerts
        self.registry = registry
    }

    /// Runs until the source ends and the outboxes are delivered, or until ``stop()`` (or a
    /// service group's graceful shutdown).
    /// - Throws: what ended the source, other than a stop.
    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await runUntilStopped()
        } onGracefulShutdown: {
            self.stop()
        }
    }

    private func runUntilStopped() async throws {
        let deliveries = sinks.map { sink in Task { await sink.dispatcher.run() } }
        // Fetch the remote alerts (or load the cached last good set) before listening.
        if let remoteAlerts { await refreshRemoteAlerts(remoteAlerts, first: true) }
        let remote = remoteAlerts.map { remote in Task { await self.followRemoteAlerts(remote) } }
        defer { remote?.cancel() }
        let sourceTask = Task { try await self.runSource() }
        let stopAlready = control.withLock { control in
            control.sourceTask = sourceTask
            return control.stopping
        }
        if stopAlready { sourceTask.cancel() }
        var failure: (any Error)?
        do {
            try await sourceTask.value
        } catch {
            if !control.withLock({ $0.stopping }) { failure = error }
        }
        let stopping = control.withLock { $0.stopping }
        for sink in sinks {
            if stopping || failure != nil { await sink.dispatcher.finish() } else { await sink.dispatcher.finishWhenDrained() }
        }
        for delivery in deliveries { await delivery.value }
        for sink in sinks {
            let left = backlog(of: sink.name)
            if left > 0 {
                logger.warning("sink '\(sink.name)': \(left) events left in the outbox for the next start",
                               metadata: ["sink": "\(sink.name)", "backlog": "\(left)"])
            }
        }
        collectMetrics()
        for observer in stateObservers { await observer.finish() }
        if let failure { throw failure }
    }

    /// Stops the source; the sinks then get a last attempt and are flushed. Safe from any thread.
    public func stop() {
        let task = control.withLock { control in
            control.stopping = true
            return control.sourceTask
        }
        task?.cancel()
        let dispatchers = sinks.map(\.dispatcher)
        Task { for dispatcher in dispatchers { await dispatcher.finish() } }
    }

    /// What the pipeline has processed so far.
    public var statistics: PipelineStatistics { pipeline.statistics }

    /// Events waiting in a sink's outbox (0 if the outbox cannot be read).
    private func backlog(of sink: String) -> Int {
        (try? outbox.backlog(sink: sink)) ?? 0
    }

    /// Brings the metrics up to date with the pipeline's counters and the outboxes' depths.
    public func collectMetrics() {
        var backlogs: [String: Int] = [:]
        for sink in sinks { backlogs[sink.name] = backlog(of: sink.name) }
        metrics.collect(pipeline.statistics, trackedBeacons: pipeline.trackedBeacons, backlogs: backlogs)
    }

    /// Posts a named event to the running pipeline, for one beacon or all (`beacon == nil`): the
    /// pending alerts whose `cancelOn` names it are cancelled, their events go to the sinks.
    ///
    /// It happens at the wall clock's time for a radio, and at the pipeline's latest time for a
    /// replay or a simulation (whose time is their own).
    public func post(event name: String, beacon: BeaconID?) async throws -> ExternalEventReceipt {
        let dispatchers = sinks.map(\.dispatcher)
        var cancelled = 0
        let time = try pipeline.post(.external(name: name, beacon: beacon), now: isLive ? WallClock().now : nil) { routed in
            if routed.event.kind == .cancelled { cancelled += 1 }
            for dispatcher in dispatchers { dispatcher.notify() }
        }
        metrics.recordExternalEvent(name: name)
        logger.info("event posted", metadata: ["event": "\(name)", "beacon": "\(beacon.map { "\($0)" } ?? "all")",
                                               "cancelled": "\(cancelled)"])
        return ExternalEventReceipt(name: name, beacon: beacon, time: time, cancelled: cancelled)
    }

    /// The control endpoint's routes for this gateway: metrics, health, posted events.
    public var controlRoutes: ControlRoutes {
        ControlRoutes(metrics: { [self] in
            collectMetrics()
            return metrics.render()
        }, health: { [self] in
            var json = JSONWriter()
            json.object { object in
                object.member("status", control.withLock { $0.stopping } ? "stopping" : "ok")
                object.member("source", sourceName)
                object.member("beaconsTracked", pipeline.trackedBeacons)
                object.key("outbox")
                object.object { outbox in
                    for sink in sinks { outbox.member(sink.name, backlog(of: sink.name)) }
                }
            }
            return json.string
        }, postEvent: { [self] name, beacon in
            try await post(event: name, beacon: beacon)
        })
    }

    private func runSource() async throws {
        let dispatchers = sinks.map(\.dispatcher)
        let notify: @Sendable (RoutedEvent) -> Void = { _ in for dispatcher in dispatchers { dispatcher.notify() } }
        let pipeline = pipeline
        let observers = stateObservers
        // A radio's cycles must end (and alerts fall due) while nothing is heard: tick on the wall clock.
        let ticker: Task<Void, any Error>? = isLive ? Task {
            let clock = WallClock()
            while !Task.isCancelled {
                try await clock.sleep(for: .seconds(1))
                try pipeline.advance(to: clock.now, emit: notify)
                pipeline.observeBeacons(observers)
            }
        } : nil
        defer { ticker?.cancel() }
        var last: Timestamp?
        try await source.run { batch in
            try pipeline.ingest(batch, emit: notify)
            pipeline.observeBeacons(observers)
            if let time = batch.records.last?.timestamp { last = time }
        }
        if let last { try pipeline.advance(to: last + .seconds(1), emit: notify) }
        pipeline.observeBeacons(observers)
    }

    /// Keeps the alert definitions in line with the remote document: a check every
    /// `checkEvery` after the first; each new valid set is applied to the running pipeline, and
    /// every failure is logged while the last good set stays in force.
    private func followRemoteAlerts(_ remote: RemoteAlertDefinitions, clock: any Clock<Duration> = ContinuousClock()) async {
        while !Task.isCancelled {
            do {
                try await clock.sleep(for: remote.configuration.checkEvery)
            } catch {
                return
            }
            await refreshRemoteAlerts(remote, first: false)
        }
    }

    /// One check (the first also loads the cached last good set, for a start without network).
    private func refreshRemoteAlerts(_ remote: RemoteAlertDefinitions, first: Bool) async {
        if first, let cached = await remote.loadCache() {
            await apply(cached, from: remote)
        }
        await apply(await remote.check(now: WallClock().now), from: remote)
    }

    private func apply(_ outcome: RemoteAlertDefinitions.Outcome, from remote: RemoteAlertDefinitions) async {
        guard case .updated = outcome else {
            if outcome != .unchanged { logger.warning("\(outcome.logLine)") }
            return
        }
        do {
            try pipeline.replaceAlerts(await remote.definitions, registry: registry)
            logger.info("\(outcome.logLine)")
        } catch {
            logger.error("remote alerts: kept the last good set; the new set cannot run: \(error)")
        }
    }
}
