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
/// dies) — and `committed`, QoS 1: the idempotency key of every alert event the active hub has
/// committed to its outbox.
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
        var client: MQTTSiteClient?
        /// Counts connections, so that a settling wait outlived by its connection is ignored.
        var connection = 0
    }

    private enum Input {
        case election(HubElection.Event)
        case settled(connection: Int)
        case committed([String])
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

    /// Whether a dispatcher may deliver `entry` now.
    package func isDeliverable(_ entry: OutboxEntry) -> Bool {
        state.withLock { entry.id <= $0.deliverableThrough }
    }

    func statusTopic(_ hub: String) -> String { "\(base)/\(hub)/status" }
    var committedTopic: String { "\(base)/committed" }

    /// An alert event this hub has committed: announced when active, reconciled when standby.
    package func committed(_ event: AlertEvent) {
        let (active, client) = state.withLock { ($0.election.role == .active, $0.client) }
        if active {
            client?.publishReliably(topic: committedTopic, payload: Array(event.idempotencyKey.utf8), retained: false)
        } else {
            reconcile()
        }
    }

    /// Connects, takes part in the election and follows the active hub's commits until
    /// cancelled; then says `offline` (the others take over at once).
    package func run(clock: AnyTimestampClock) async throws {
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        var options = settings.connection
        options.statusTopic = statusTopic(takeover.id)
        let statusPrefix = "\(base)/"
        let committedTopic = committedTopic
        let client = try MQTTSiteClient(
            host: settings.host, port: settings.port, options: options,
            clientID: "beacond-hub-\(settings.topics.site)-\(base.split(separator: "/").last ?? "")-\(takeover.id)",
            subscriptions: ["\(base)/+/status", committedTopic],
            onConnection: { connected, _ in continuation.yield(.election(connected ? .connected : .disconnected)) }
        ) { topic, payload in
            if topic == committedTopic {
                continuation.yield(.committed(String(decoding: payload, as: UTF8.self).split(separator: "\n").map(String.init)))
            } else if topic.hasPrefix(statusPrefix), topic.hasSuffix("/status") {
                let hub = topic.dropFirst(statusPrefix.count).dropLast("/status".count)
                guard !hub.contains("/"), let status = HubElection.Status(payload: String(decoding: payload, as: UTF8.self))
                else { return }
                continuation.yield(.election(.status(hub: String(hub), status)))
            }
        }
        state.withLock { $0.client = client }
        defer {
            continuation.finish()
            client.close()
        }
        let settle = takeover.settle
        try await withThrowingTaskGroup(of: Void.self) { group in
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
                case .committed(let keys):
                    let events = keys.compactMap(CommittedEvent.init(key:))
                    state.withLock { state in
                        state.committed += events
                        if state.committed.count > Self.rememberedCommits {
                            state.committed.removeFirst(state.committed.count - Self.rememberedCommits)
                        }
                    }
                    if role == .standby { reconcile() }
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
                // What the dead hub committed is gone from the hold; the rest is this hub's now.
                reconcile()
                state.withLock { $0.deliverableThrough = .max }
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

    /// Removes the held entries (decided while standby) that the active hub has committed.
    private func reconcile() {
        let (through, committed) = state.withLock { ($0.deliverableThrough, $0.committed) }
        guard !committed.isEmpty else { return }
        let window = takeover.matchWindow
        for sink in sinks {
            do {
                let held = try outbox.pending(sink: sink, limit: Int.max).filter { $0.id > through }
                let matched = held.filter { entry in
                    guard let event = CommittedEvent(key: entry.event.key) else { return false }
                    return committed.contains { $0.matches(event, within: window) }
                }
                if !matched.isEmpty { try outbox.remove(matched.map(\.id)) }
            } catch {
                logger.error("hub takeover: cannot reconcile the held events of sink '\(sink)': \(error)")
            }
        }
    }

    /// The newest entry id of the sinks' outboxes (0 when empty).
    private static func newestEntry(in outbox: any Outbox, sinks: [String]) -> Int64 {
        sinks.compactMap { sink in try? outbox.pending(sink: sink, limit: Int.max).last?.id }.max() ?? 0
    }
}
