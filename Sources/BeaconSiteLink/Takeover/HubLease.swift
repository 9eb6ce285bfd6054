import BeaconCore
import BeaconDaemonConfiguration
import BeaconMQTT
import BeaconSinks
import BeaconSiteReport
import Logging
import Synchronization

/// A hub's part in its share's hot standby (`hub.takeover`): its status on the broker, the
/// election (``HubElection``), and which of the alert events it decides it may deliver
/// (``HubClaims``).
///
/// Topics, under `<prefix>/<site>/hubs/<index>of<of>/<id>/`: `status`, retained — `standby`,
/// `active`, or `offline` (an orderly stop, or the last will the broker publishes when the hub
/// dies) — and `claims`, retained, QoS 1: the idempotency keys of the events the hub has claimed
/// in the last ten minutes, one a line.
///
/// Every hub decides the same events from the same reports and commits them to its own outbox
/// (durable). An event is delivered only by the hub whose claim the broker holds: the active hub
/// claims what it commits and its dispatchers see an event once the broker has acknowledged the
/// claim. A standby holds what it decides, and drops each held event another hub claimed — the
/// same key, or the same alert, beacon and kind within `matchWindow`. When it takes over, it claims
/// what it still holds: what no other hub claimed.
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

    private struct State {
        var election: HubElection
        var claims: HubClaims
        var client: MQTTSiteClient?
        /// Counts connections: each has a client of its own.
        var connection = 0
        /// Whether this connection's client has connected (a client refused from the start is
        /// left to retry with its own back-off).
        var connected = false
    }

    private enum Input {
        case election(HubElection.Event, connection: Int)
        case settled(connection: Int)
        case claims(hub: String, keys: [String])
        case acknowledged(messageID: Int32, connection: Int)
        /// Claims waiting for a publication that could not be made go out again.
        case retry
    }

    /// How often claims that could not be published are tried again.
    static let retryInterval = Duration.seconds(1)

    /// A standby hub of the share `partition`: what its outbox holds is held until the broker
    /// shows it is this hub's (its retained claims) or this hub takes over.
    /// - Parameter wake: wakes the dispatchers (claims acknowledged make events deliverable).
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
        state = Mutex(
            State(
                election: HubElection(me: takeover.id),
                claims: HubClaims(me: takeover.id, matchWindow: takeover.matchWindow)))
    }

    /// Whether this hub delivers now.
    package var role: HubElection.Role { state.withLock { $0.election.role } }

    /// The entries of `entries` this hub may deliver: those the broker holds as its claims.
    package func deliverable(_ entries: [OutboxEntry]) -> [OutboxEntry] {
        state.withLock { state in entries.filter { state.claims.isMine($0.event.key) } }
    }

    func statusTopic(_ hub: String) -> String { "\(base)/\(hub)/status" }
    func claimsTopic(_ hub: String) -> String { "\(base)/\(hub)/claims" }

    /// An event this hub has committed to its outbox, by key — an alert's or one of its own notices:
    /// claimed when active — unless another hub claimed it already (a hub that took over may
    /// decide a dwell again, late, that the hub before it delivered) — and held otherwise,
    /// reconciled with the others' claims.
    package func committed(key: String) {
        let claimed = state.withLock { state in
            guard state.election.role == .active, !state.claims.claimedByOthers(key) else { return false }
            state.claims.claim([key])
            return true
        }
        if claimed { publishClaims() } else { reconcile() }
    }

    /// Connects, takes part in the election and follows the other hubs' claims until cancelled;
    /// then says `offline` (the others take over at once).
    /// - Parameters:
    ///   - clock: times the settling wait.
    ///   - settled: called each time the election has settled on a connection: this hub knows
    ///     whether it is the active hub or a standby (the daemon's readiness).
    package func run(clock: AnyTimestampClock, settled: @escaping @Sendable () -> Void = {}) async throws {
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        try connect(continuation)
        logger.notice("hub takeover: '\(takeover.id)' is a standby of \(base) until it is elected")
        defer {
            continuation.finish()
            let client = state.withLock { state in
                defer { state.client = nil }
                return state.client
            }
            client?.close()
        }
        let settle = takeover.settle
        await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                while true {
                    try await clock.sleep(for: Self.retryInterval)
                    continuation.yield(.retry)
                }
            }
            for await input in inputs {
                let current = state.withLock { $0.connection }
                switch input {
                case .election(let event, let connection):
                    guard connection == current else { continue }
                    if event == .connected {
                        group.addTask {
                            try await clock.sleep(for: settle)
                            continuation.yield(.settled(connection: connection))
                        }
                    }
                    perform(state.withLock { $0.election.handle(event) })
                    switch event {
                    case .connected:
                        state.withLock { $0.connected = true }
                    case .disconnected:
                        let wasConnected = state.withLock { state in
                            state.claims.connectionLost()
                            return state.connected
                        }
                        guard wasConnected else { continue }
                        // A new client: what the old one had in flight is never sent again.
                        do {
                            try connect(continuation)
                        } catch {
                            logger.error("hub takeover: cannot make a new MQTT client: \(error)")
                        }
                    default: break
                    }
                case .settled(let connection):
                    guard connection == current else { continue }
                    // A broker that restarted has lost the retained lists: this hub's goes back,
                    // once its own retained list (if the broker kept it) has been read and adopted
                    // — published earlier, a list without those claims would replace it.
                    publishClaims(again: true)
                    perform(state.withLock { $0.election.handle(.settled) })
                    logger.notice("hub takeover: '\(takeover.id)' has settled on this connection: it is the \(role.rawValue) hub")
                    settled()
                case .claims(let hub, let keys):
                    let (grew, standby) = state.withLock { state in
                        (state.claims.heard(hub: hub, keys: keys), state.election.role == .standby)
                    }
                    if grew {
                        wake()
                        // This hub's list of an earlier run: it goes back whole with what is new.
                        if hub == takeover.id { publishClaims(again: true) }
                    }
                    if standby { reconcile() }
                case .acknowledged(let messageID, let connection):
                    let grew = state.withLock { $0.claims.acknowledged(messageID: messageID, connection: connection) }
                    if grew { wake() }
                    publishClaims()
                case .retry:
                    publishClaims()
                }
            }
            group.cancelAll()
        }
    }

    /// Makes this connection's client (the first, or one after a loss). When it cannot be made,
    /// the old one stays (it reconnects by itself) and its connection stays the current one.
    private func connect(_ continuation: AsyncStream<Input>.Continuation) throws {
        let connection = state.withLock { $0.connection + 1 }
        var options = settings.connection
        options.statusTopic = statusTopic(takeover.id)
        let statusPrefix = "\(base)/"
        let client = try MQTTSiteClient(
            host: settings.host, port: settings.port, options: options,
            clientID: "beacond-hub-\(settings.topics.site)-\(base.split(separator: "/").last ?? "")-\(takeover.id)",
            subscriptions: ["\(base)/+/status", "\(base)/+/claims"],
            onConnection: { connected, _ in
                continuation.yield(.election(connected ? .connected : .disconnected, connection: connection))
            },
            onMessage: { topic, payload in
                guard topic.hasPrefix(statusPrefix) else { return }
                let path = topic.dropFirst(statusPrefix.count).split(separator: "/", omittingEmptySubsequences: false)
                guard path.count == 2 else { return }
                let hub = String(path[0])
                switch path[1] {
                case "status":
                    guard let status = HubElection.Status(payload: String(decoding: payload, as: UTF8.self)) else { return }
                    continuation.yield(.election(.status(hub: hub, status), connection: connection))
                case "claims":
                    let keys = String(decoding: payload, as: UTF8.self).split(separator: "\n").map(String.init)
                    continuation.yield(.claims(hub: hub, keys: keys))
                default: break
                }
            },
            onPublished: { messageID in continuation.yield(.acknowledged(messageID: messageID, connection: connection)) })
        let old = state.withLock { state in
            defer {
                state.client = client
                state.connection = connection
                state.connected = false
            }
            return state.client
        }
        // Dropping the old client stops it: it never reconnects to resend what it had in flight.
        _ = old
    }

    private func perform(_ actions: [HubElection.Action]) {
        let client = state.withLock { $0.client }
        for action in actions {
            switch action {
            case .announce(let status):
                client?.publishReliably(
                    topic: statusTopic(takeover.id), payload: Array(status.rawValue.utf8), retained: true)
            case .becomeActive:
                // What another hub claimed is dropped from the hold; the rest is this hub's to
                // claim now, and to deliver once the broker holds the claim.
                reconcile()
                let held = sinks.flatMap(pendingEntries).map(\.event.key)
                state.withLock { $0.claims.claim(held) }
                publishClaims()
                logger.notice("hub takeover: '\(takeover.id)' is now the active hub of \(base): it delivers the share's alerts")
            case .becomeStandby:
                state.withLock { $0.claims.steppedDown() }
                logger.warning(
                    "hub takeover: '\(takeover.id)' is a standby of \(base): it holds the alerts it decides until it takes over")
            }
        }
    }

    /// Publishes this hub's claims list when something is new (or `again`) and no publication
    /// is in flight.
    private func publishClaims(again: Bool = false) {
        let (client, connection, keys, crowded) = state.withLock { state in
            let keys = state.claims.nextPublication(connection: state.connection, again: again)
            return (state.client, state.connection, keys, state.claims.claimCount > 2 * HubClaims.limit)
        }
        guard let keys else { return }
        if crowded {
            let pending = Set(sinks.flatMap(pendingEntries).map(\.event.key))
            state.withLock { $0.claims.forget(keeping: pending) }
        }
        let messageID = client?.publishReliably(
            topic: claimsTopic(takeover.id), payload: Array(keys.joined(separator: "\n").utf8), retained: true)
        let grew = state.withLock { $0.claims.published(messageID: messageID, connection: connection) }
        if grew {
            // Acknowledged before its id was noted: what was claimed meanwhile goes out now.
            wake()
            publishClaims()
        }
    }

    /// Removes the held entries (not this hub's) that another hub has claimed.
    private func reconcile() {
        let entries = sinks.flatMap(pendingEntries)
        let matched = state.withLock { state in
            entries.filter { !state.claims.isMine($0.event.key) && state.claims.claimedByOthers($0.event.key) }
        }
        guard !matched.isEmpty else { return }
        do {
            try outbox.remove(matched.map(\.id))
        } catch {
            logger.error("hub takeover: cannot drop \(matched.count) held event(s) another hub claimed: \(error)")
        }
    }

    /// The entries waiting for `sink`.
    private func pendingEntries(_ sink: String) -> [OutboxEntry] {
        do {
            return try outbox.pending(sink: sink, limit: Int.max)
        } catch {
            logger.error("hub takeover: cannot read the held events of sink '\(sink)': \(error)")
            return []
        }
    }
}
