/// Which of the hubs sharing one partition delivers the site's alerts, decided from what each
/// hub announces on the broker: a state machine whose events (the broker connection, a peer's
/// retained status, the end of the settling wait) return what the hub must announce and do.
///
/// Every hub of the share fuses the same reports and decides the same alerts (a hot standby);
/// only the **active** one delivers them. The rules, applied after every event while connected:
/// - an active hub stays active (no preemption: a hub that comes back does not take over again);
/// - two active hubs (a race, a partition of the broker healed): the one with the smaller id
///   stays, the other steps down;
/// - no active hub (its last will said `offline`): once settled (the retained statuses have had
///   time to arrive), the standby with the smallest id among those online takes over.
/// A hub that loses the broker steps down at once: it cannot know whether another took over.
public struct HubElection: Sendable, Equatable {
    /// What a hub does with the alerts it decides.
    public enum Role: String, Sendable, Equatable {
        /// Keeps them (held, reconciled with what the active hub committed).
        case standby
        /// Delivers them.
        case active
    }

    /// What a hub says of itself on its retained status topic.
    public enum Status: String, Sendable, Equatable {
        /// Connected, not delivering.
        case standby
        /// Connected and delivering.
        case active
        /// Gone: an orderly stop, or the last will the broker publishes for it.
        case offline

        /// A status payload; `online` (the connection's own first word) counts as standby.
        public init?(payload: String) {
            switch payload {
            case "online": self = .standby
            default: self.init(rawValue: payload)
            }
        }
    }

    /// What happened.
    public enum Event: Sendable, Equatable {
        /// Connected (or connected again) to the broker, subscribed to the statuses.
        case connected
        /// Lost the broker.
        case disconnected
        /// The retained statuses have had time to arrive since ``Event/connected``.
        case settled
        /// A hub's status (this hub's own echo included).
        case status(hub: String, Status)
    }

    /// What the hub must do.
    public enum Action: Sendable, Equatable {
        /// Publish this status, retained.
        case announce(Status)
        /// Start delivering: what the active hub had not committed is this hub's to deliver now.
        case becomeActive
        /// Stop delivering: hold what is decided from now on.
        case becomeStandby
    }

    /// This hub's id (`hub.takeover.id`).
    public let me: String
    /// Whether this hub delivers now.
    public private(set) var role: Role = .standby
    /// The other hubs' latest statuses.
    public private(set) var peers: [String: Status] = [:]
    private var connected = false
    private var settled = false

    /// A standby hub, not yet connected.
    public init(me: String) {
        self.me = me
    }

    /// Steps the machine.
    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .connected:
            connected = true
            settled = false
            return [.announce(role == .active ? .active : .standby)]
        case .disconnected:
            connected = false
            settled = false
            guard role == .active else { return [] }
            role = .standby
            return [.becomeStandby]
        case .settled:
            guard connected else { return [] }
            settled = true
        case .status(let hub, let status):
            guard hub != me else { return [] }
            peers[hub] = status
        }
        return decide()
    }

    private mutating func decide() -> [Action] {
        guard connected else { return [] }
        let activePeers = peers.filter { $0.value == .active }.map(\.key)
        switch role {
        case .active:
            guard let senior = activePeers.min(), senior < me else { return [] }
            role = .standby
            return [.becomeStandby, .announce(.standby)]
        case .standby:
            guard settled, activePeers.isEmpty else { return [] }
            let candidates = peers.filter { $0.value == .standby }.map(\.key) + [me]
            guard candidates.min() == me else { return [] }
            role = .active
            return [.becomeActive, .announce(.active)]
        }
    }
}
