import BeaconCore
import BeaconPipeline
import Synchronization

/// What the status page shows, gathered on demand: the pipeline's inspection (at most one per
/// ``refreshInterval``, shared by every viewer), the RSSI history it builds up while someone
/// watches, the alert log and the outboxes' depths.
///
/// Nobody watching costs nothing: the board asks the pipeline only when a request comes, and
/// forgets the history once nobody has asked for ``idleForget``.
public final class StatusBoard: Sendable {
    /// One refresh of the board.
    public struct Snapshot: Sendable {
        /// Increases by one per refresh.
        public var version: Int
        /// The pipeline's inspection.
        public var inspection: PipelineInspection
        /// Each sink's outbox depth at the refresh.
        public var outbox: [(sink: String, depth: Int)]
        /// Each sink's alert latency at the refresh (empty when the daemon does not measure it:
        /// a source on a time of its own).
        public var latency: [SinkLatency] = []
        /// The latest check of the remote alert document, if the daemon fetches one.
        public var remote: RemoteCheckStatus?
        /// The latest reload of the configuration file, if there was one.
        public var reload: ReloadStatus?
    }

    /// Where the data comes from, injected (the daemon's pipeline runner and outbox, or a test's).
    public struct Sources: Sendable {
        /// The daemon's source (`sim:lobby.yaml`, `hci0`, `hub`).
        public var sourceName: String
        /// Takes an inspection of the pipeline.
        public var inspect: @Sendable () async throws -> PipelineInspection
        /// Each sink's outbox depth.
        public var outbox: @Sendable () -> [(sink: String, depth: Int)]
        /// Each sink's alert latency.
        public var latency: @Sendable () -> [SinkLatency]
        /// The latest check of the remote alert document.
        public var remote: @Sendable () -> RemoteCheckStatus?
        /// The latest reload of the configuration file.
        public var reload: @Sendable () -> ReloadStatus?
        /// A hub's link to its broker (read at each request, not kept with a snapshot: a
        /// connection that comes or goes shows at once).
        public var broker: @Sendable () -> BrokerStatus?

        /// Creates the sources.
        public init(
            sourceName: String, inspect: @escaping @Sendable () async throws -> PipelineInspection,
            outbox: @escaping @Sendable () -> [(sink: String, depth: Int)],
            latency: @escaping @Sendable () -> [SinkLatency] = { [] },
            remote: @escaping @Sendable () -> RemoteCheckStatus? = { nil },
            reload: @escaping @Sendable () -> ReloadStatus? = { nil },
            broker: @escaping @Sendable () -> BrokerStatus? = { nil }
        ) {
            self.reload = reload
            self.broker = broker
            self.sourceName = sourceName
            self.inspect = inspect
            self.outbox = outbox
            self.latency = latency
            self.remote = remote
        }
    }

    private struct State: Sendable {
        var snapshot: Snapshot?
        var takenAt: ContinuousClock.Instant?
        var refreshing: Task<Snapshot, any Error>?
        var histories: [BeaconID: BeaconHistory] = [:]
        var lastRequest: ContinuousClock.Instant?
    }

    /// The data's origins.
    public let sources: Sources
    /// The alert events and their deliveries.
    public let log: AlertLog
    /// The shortest time between two inspections of the pipeline (default 1 s).
    public let refreshInterval: Duration
    /// How many samples each beacon's RSSI history keeps (default 180: 3 minutes at one a second).
    public let historyLength: Int
    /// How long without a request before the history is dropped (default 60 s).
    public let idleForget: Duration
    private let clock: ContinuousClock
    private let state = Mutex(State())

    /// Creates a board.
    public init(
        sources: Sources, log: AlertLog, refreshInterval: Duration = .seconds(1), historyLength: Int = 180,
        idleForget: Duration = .seconds(60), clock: ContinuousClock = ContinuousClock()
    ) {
        self.sources = sources
        self.log = log
        self.refreshInterval = refreshInterval
        self.historyLength = max(1, historyLength)
        self.idleForget = idleForget
        self.clock = clock
    }

    /// The latest snapshot, refreshed first when it is older than ``refreshInterval``. Requests
    /// that arrive together share one inspection.
    /// - Throws: the pipeline's error when it never answered (it stopped before the first look).
    public func current() async throws -> Snapshot {
        let now = clock.now
        enum Next {
            case fresh(Snapshot)
            case wait(Task<Snapshot, any Error>)
        }
        let next: Next = state.withLock { state in
            if let last = state.lastRequest, last.duration(to: now) > idleForget { state.histories.removeAll() }
            state.lastRequest = now
            if let snapshot = state.snapshot, let takenAt = state.takenAt, takenAt.duration(to: now) < refreshInterval {
                return .fresh(snapshot)
            }
            if let refreshing = state.refreshing { return .wait(refreshing) }
            // Unstructured on purpose: the refresh is shared by every request that arrives while
            // it runs, so it cannot be the child of any one of them (a request that goes away
            // must not cancel the others' answer); it ends with the refresh, holding nothing.
            let refreshing = Task { try await self.refresh() }
            state.refreshing = refreshing
            return .wait(refreshing)
        }
        switch next {
        case .fresh(let snapshot): return snapshot
        case .wait(let task): return try await task.value
        }
    }

    /// Makes the next request take a fresh inspection, however recent the last one (after a
    /// reload, the page shows the alerts now in force at once).
    public func invalidate() {
        state.withLock { $0.takenAt = nil }
    }

    /// Takes an inspection and files its samples into the histories.
    private func refresh() async throws -> Snapshot {
        defer { state.withLock { $0.refreshing = nil } }
        let inspection = try await sources.inspect()
        let outbox = sources.outbox()
        let latency = sources.latency()
        let remote = sources.remote()
        let reload = sources.reload()
        let takenAt = clock.now
        return state.withLock { state in
            let version = (state.snapshot?.version ?? 0) + 1
            let snapshot = Snapshot(
                version: version, inspection: inspection, outbox: outbox, latency: latency, remote: remote, reload: reload)
            if state.snapshot?.inspection.cycleTime != inspection.cycleTime || state.snapshot == nil {
                record(inspection, version: version, into: &state.histories)
            }
            state.snapshot = snapshot
            state.takenAt = takenAt
            return snapshot
        }
    }

    private func record(_ inspection: PipelineInspection, version: Int, into histories: inout [BeaconID: BeaconHistory]) {
        guard let time = inspection.cycleTime ?? inspection.time else { return }
        for (index, beacon) in inspection.beacons.enumerated() {
            let evidence = index < inspection.gatewayRSSI.count ? inspection.gatewayRSSI[index] : []
            let sample = BeaconHistory.Sample(
                time: time, raw: Float(beacon.meanRSSI ?? beacon.lastRSSI.map(Double.init) ?? .nan),
                filtered: Float(beacon.filteredRSSI ?? .nan),
                gateways: evidence.map { Float($0.rssi ?? .nan) })
            histories[beacon.id, default: BeaconHistory()].append(sample, capacity: historyLength)
            histories[beacon.id]?.lastListed = version
        }
        // A beacon not listed for a whole history's length has nothing left to plot.
        histories = histories.filter { version - $0.value.lastListed < historyLength }
    }

    /// A beacon's RSSI samples, oldest first (empty when none was taken while watched).
    func history(of beacon: BeaconID) -> [BeaconHistory.Sample] {
        state.withLock { $0.histories[beacon]?.ordered ?? [] }
    }

    /// How many beacons have a history (for tests and the health document).
    public var beaconsWithHistory: Int { state.withLock { $0.histories.count } }
}
