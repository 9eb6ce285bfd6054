import BeaconCore
import BeaconDaemonConfiguration
import BeaconMQTT
import BeaconSinks
import BeaconSiteReport
import Logging
import Synchronization

/// A hub's part in its share's hot standby (`hub.takeover`): its status on the broker, the
/// election (``HubElection``), and what it does with the alert events it decides.
///
/// Topics, under `<prefix>/<site>/hubs/<index>of<of>/`: `<id>/status`, retained — `standby`,
/// `active`, or `offline` (an orderly stop, or the last will the broker publishes when the hub
/// dies) — `committed`, QoS 1: the idempotency key of every alert event the active hub has
/// committed to its outbox — and `committed/recent`, retained: those of the last ten minutes,
/// for a standby that joins (or comes back) after they were announced.
///
/// The active hub delivers as any hub does. A standby hub decides the same events from the same
/// reports, commits them to its outbox like any hub (durable), but holds them: its dispatchers see
/// only what was there before it became standby (what it owes from an earlier run as the active
/// hub). Each held event that the active hub announces as committed — the same key, or the same
/// alert, beacon and kind within `matchWindow` — is removed. When the standby takes over, what it
/// still holds is what the dead hub had not committed, and it is delivered.
package final class HubLease: Sendable {
    /// This hub's takeover settings.
    package let takeover: HubTakeover
    let settings: SiteSettings
    /// `<prefix>/<site>/hubs/<index>of<of>`.
    let base: String
    private let outbox: any Outbox
    private let sinks: [String]
    private let logger: Logger
    private let wake: @Sendable () -> Void
    private let state: Mutex<State>
    static let rememberedCommits = 10_000

    private struct State {
        var election: HubElection
        /// Entries with an id up to this are delivered while standby; `Int64.max` when active.
        var deliverableThrough: Int64
        /// The events the active hub announced, newest last.
        var committed: [CommittedEvent] = []
        /// The keys of ``committed`` (a retained list repeats what was announced one by one).
        var committedKeys: Set<String> = []
        /// What this hub committed (or took over) while active, newest last: the retained list.
        var own: [CommittedEvent] = []
        /// Whether ``own`` changed since it was last published.
        var ownChanged = false
        var client: MQTTSiteClient?
        /// Counts connections, so that a settling wait outlived by its connection is ignored.
        var connection = 0
    }

    private enum Input {
        case election(HubElection.Event)
        case settled(connection: Int)
        case committed([String])
        case publishRecent
    }

    /// A standby hub of the share `partition`; what the outbox holds now is this hub's to deliver.
    /// - Parameter wake: wakes the dispatchers (a takeover makes held events deliverable).
    package init(
        settings: SiteSettings, takeover: HubTakeover, partition: (index: Int, of: Int), outbox: any Outbox,
        sinks: [String], logger: Logger, wake: @escaping @Sendable () -> Void
    ) {
        self.settings = settings
        self.takeover = takeover
        base = "\(settings.topics.prefix)/\(settings.topics.site)/hubs/\(partition.index)of\(partition.of)"
        self.outbox = outbox
        self.sinks = sinks
        self.logger = logger
        self.wake = wake
        let owed = Self.newestEntry(in: outbox, sinks: sinks)
        state = Mutex(State(election: HubElection(me: takeover.id), deliverableThrough: owed))
    }

    /// Whether this hub delivers now.
    package var role: HubElection.Role { state.withLock { $0.election.role } }

    /// The newest outbox entry a dispatcher may deliver now (`Int64.max` when active).
    package var deliverableThrough: Int64 { state.withLock { $0.deliverableThrough } }

    func statusTopic(_ hub: String) -> String { "\(base)/\(hub)/status" }
    var committedTopic: String { "\(base)/committed" }
    /// Retained: what the active hub committed lately, for a standby that joins (or comes back).
    var recentTopic: String { "\(base)/committed/recent" }
    /// How far back the retained list of recent commits goes.
    static let recentWindow = Duration.seconds(600)
    static let recentLimit = 5000
    /// How often the retained list is published, when it changed: it may hold thousands of keys,
    /// so a burst of commits publishes it once, not once per commit.
    static let recentInterval = Duration.seconds(1)

    /// An alert event this hub has committed: announced when active, reconciled when standby.
    package func committed(_ event: AlertEvent) {
        let (active, client) = state.withLock { ($0.election.role == .active, $0.client) }
        if active, let client {
            client.publishReliably(topic: committedTopic, payload: Array(event.idempotencyKey.utf8), retained: false)
            remember([event.idempotencyKey])
        } else if !active {
            reconcile()
        }
    }

    /// Connects, takes part in the election and follows the active hub's commits until
    /// cancelled; then says `offline` (the others take over at once).
    /// - Parameter settled: called each time the election has settled on a connection: this hub
    ///   knows whether it is the active hub or a standby (the daemon's readiness).
    package func run(clock: AnyTimestampClock, settled: @escaping @Sendable () -> Void = {}) async throws {
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        var options = settings.connection
        options.statusTopic = statusTopic(takeover.id)
        let statusPrefix = "\(base)/"
        let committedTopic = committedTopic
        let recentTopic = recentTopic
        let client = try MQTTSiteClient(
            host: settings.host, port: settings.port, options: options,
            clientID: "beacond-hub-\(settings.topics.site)-\(base.split(separator: "/").last ?? "")-\(takeover.id)",
            subscriptions: ["\(base)/+/status", committedTopic, recentTopic],
            onConnection: { connected, _ in continuation.yield(.election(connected ? .connected : .disconnected)) }
        ) { topic, payload in
            if topic == committedTopic || topic == recentTopic {
                continuation.yield(.committed(String(decoding: payload, as: UTF8.self).split(separator: "\n").map(String.init)))
            } else if topic.hasPrefix(statusPrefix), topic.hasSuffix("/status") {
                let hub = topic.dropFirst(statusPrefix.count).dropLast("/status".count)
                guard !hub.contains("/"), let status = HubElection.Status(payload: String(decoding: payload, as: UTF8.self))
                else { return }
                continuation.yield(.election(.status(hub: String(hub), status)))
            }
        }
        state.withLock { $0.client = client }
        logger.notice("hub takeover: '\(takeover.id)' is a standby of \(base) until it is elected")
        defer {
            continuation.finish()
            publishRecent(client: client)
            client.close()
        }
        let settle = takeover.settle
        let onSettled = settled
        await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                while true {
                    try await clock.sleep(for: Self.recentInterval)
                    continuation.yield(.publishRecent)
                }
            }
            for await input in inputs {
                switch input {
                case .election(let event):
                    if event == .connected {
                        let connection = state.withLock { state in
                            state.connection += 1
                            return state.connection
                        }
                        group.addTask {
                            try await clock.sleep(for: settle)
                            continuation.yield(.settled(connection: connection))
                        }
                    }
                    perform(state.withLock { $0.election.handle(event) }, client: client)
                case .settled(let connection):
                    guard state.withLock({ $0.connection == connection }) else { continue }
                    perform(state.withLock { $0.election.handle(.settled) }, client: client)
                    onSettled()
                case .committed(let keys):
                    let events = keys.compactMap(CommittedEvent.init(key:))
                    state.withLock { state in
                        for event in events where state.committedKeys.insert(event.key).inserted {
                            state.committed.append(event)
                        }
                        if state.committed.count > Self.rememberedCommits {
                            let forgotten = state.committed.count - Self.rememberedCommits
                            for event in state.committed.prefix(forgotten) { state.committedKeys.remove(event.key) }
                            state.committed.removeFirst(forgotten)
                        }
                    }
                    if role == .standby { reconcile() }
                case .publishRecent:
                    publishRecent(client: client)
                }
            }
            group.cancelAll()
        }
    }

    private func perform(_ actions: [HubElection.Action], client: MQTTSiteClient) {
        for action in actions {
            switch action {
            case .announce(let status):
                client.publishReliably(topic: statusTopic(takeover.id), payload: Array(status.rawValue.utf8), retained: true)
            case .becomeActive:
                // What the dead hub committed is gone from the hold; the rest is this hub's now,
                // and announced as committed, so that no other standby delivers it again later.
                reconcile()
                let through = state.withLock { state in
                    defer { state.deliverableThrough = .max }
                    // The history goes on: what the dead hub committed stays in the retained list.
                    state.own = state.committed
                    return state.deliverableThrough
                }
                let taken = Set(held(after: through).map(\.event.key)).sorted()
                if !taken.isEmpty {
                    client.publishReliably(
                        topic: committedTopic, payload: Array(taken.joined(separator: "\n").utf8), retained: false)
                }
                remember(taken)
                logger.notice("hub takeover: '\(takeover.id)' is now the active hub of \(base): it delivers the share's alerts")
                wake()
            case .becomeStandby:
                let owed = Self.newestEntry(in: outbox, sinks: sinks)
                state.withLock { $0.deliverableThrough = owed }
                logger.warning(
                    "hub takeover: '\(takeover.id)' is a standby of \(base): it holds the alerts it decides until it takes over")
            }
        }
    }

    /// Adds `keys` to what this hub has committed, for the retained list.
    private func remember(_ keys: [String]) {
        let events = keys.compactMap(CommittedEvent.init(key:))
        guard !events.isEmpty else { return }
        state.withLock { state in
            state.own += events
            state.ownChanged = true
        }
    }

    /// Publishes the keys of the last ten minutes, retained, if they changed: for a standby that
    /// joins later (it did not hear the commits one by one).
    private func publishRecent(client: MQTTSiteClient) {
        let recent: [String]? = state.withLock { state in
            guard state.ownChanged, let newest = state.own.map(\.time).max() else { return nil }
            state.ownChanged = false
            state.own.removeAll { $0.time < newest.advanced(by: .zero - Self.recentWindow) }
            if state.own.count > Self.recentLimit { state.own.removeFirst(state.own.count - Self.recentLimit) }
            return state.own.map(\.key)
        }
        guard let recent, !recent.isEmpty else { return }
        client.publishReliably(topic: recentTopic, payload: Array(recent.joined(separator: "\n").utf8), retained: true)
    }

    /// Removes the held entries (decided while standby) that the active hub has committed.
    private func reconcile() {
        let (through, committed) = state.withLock { ($0.deliverableThrough, $0.committed) }
        guard !committed.isEmpty else { return }
        let window = takeover.matchWindow
        let matched = held(after: through).filter { entry in
            guard let event = CommittedEvent(key: entry.event.key) else { return false }
            return committed.contains { $0.matches(event, within: window) }
        }
        guard !matched.isEmpty else { return }
        do {
            try outbox.remove(matched.map(\.id))
        } catch {
            logger.error("hub takeover: cannot drop \(matched.count) held event(s) the active hub committed: \(error)")
        }
    }

    /// The entries held: decided while standby (after `through`), in every sink's outbox.
    private func held(after through: Int64) -> [OutboxEntry] {
        sinks.flatMap { sink in
            do {
                return try outbox.pending(sink: sink, limit: Int.max).filter { $0.id > through }
            } catch {
                logger.error("hub takeover: cannot read the held events of sink '\(sink)': \(error)")
                return []
            }
        }
    }

    /// The newest entry id of the sinks' outboxes (0 when empty).
    private static func newestEntry(in outbox: any Outbox, sinks: [String]) -> Int64 {
        sinks.compactMap { sink in try? outbox.pending(sink: sink, limit: Int.max).last?.id }.max() ?? 0
    }
}
