import BeaconAlerting
import BeaconBlueZ
import BeaconCore
import BeaconSinks
import Synchronization

/// The running daemon: a source feeding the pipeline, whose engine writes every event to each
/// sink's outbox in the same transaction as its state; one ``OutboxDispatcher`` per sink
/// delivers from there.
///
/// Shutdown order (``stop()``): the source stops first; the pipeline has nothing left in flight
/// (its events are in the outbox as soon as they exist); each sink then gets a last attempt and
/// is flushed; what it did not confirm stays in the outbox for the next start. A source that ends
/// by itself (a replay, a simulation) is followed by delivery of the whole backlog.
public final class Gateway: Sendable {
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
    let log: @Sendable (String) -> Void
    private let control = Mutex(Control())

    init(configuration: GatewayConfiguration, source: any AdvertisementSource, isLive: Bool, pipeline: LockedPipeline,
         remoteAlerts: RemoteAlertDefinitions? = nil, registry: StrategyRegistry = StrategyRegistry(),
         sinks: [(name: String, dispatcher: OutboxDispatcher)], outbox: any Outbox, log: @escaping @Sendable (String) -> Void) {
        self.configuration = configuration
        self.source = source
        self.isLive = isLive
        self.pipeline = pipeline
        self.sinks = sinks
        self.outbox = outbox
        self.log = log
        self.remoteAlerts = remoteAlerts
        self.registry = registry
    }

    /// Runs until the source ends and the outboxes are delivered, or until ``stop()``.
    /// - Throws: what ended the source, other than a stop.
    public func run() async throws {
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
            let backlog = (try? outbox.backlog(sink: sink.name)) ?? 0
            if backlog > 0 { log("sink '\(sink.name)': \(backlog) events left in the outbox for the next start") }
        }
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

    private func runSource() async throws {
        let dispatchers = sinks.map(\.dispatcher)
        let notify: @Sendable (RoutedEvent) -> Void = { _ in for dispatcher in dispatchers { dispatcher.notify() } }
        let pipeline = pipeline
        // A radio's cycles must end (and alerts fall due) while nothing is heard: tick on the wall clock.
        let ticker: Task<Void, any Error>? = isLive ? Task {
            let clock = WallClock()
            while !Task.isCancelled {
                try await clock.sleep(for: .seconds(1))
                try pipeline.advance(to: clock.now, emit: notify)
            }
        } : nil
        defer { ticker?.cancel() }
        var last: Timestamp?
        try await source.run { batch in
            try pipeline.ingest(batch, emit: notify)
            if let time = batch.records.last?.timestamp { last = time }
        }
        if let last { try pipeline.advance(to: last + .seconds(1), emit: notify) }
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
            if outcome != .unchanged { log(outcome.logLine) }
            return
        }
        do {
            try pipeline.replaceAlerts(await remote.definitions, registry: registry)
            log(outcome.logLine)
        } catch {
            log("remote alerts: kept the last good set; the new set cannot run: \(error)")
        }
    }
}
