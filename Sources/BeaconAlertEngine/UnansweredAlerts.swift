import BeaconCore

/// How many delivered alert instances wait for an answer, by priority: the seeds' badge, in the
/// status API (`unanswered`) and the metrics (`beacond_alerts_unanswered{priority}`).
///
/// Four counters held inline (no allocation), so a snapshot can carry it on every input.
public struct UnansweredAlerts: Hashable, Sendable {
    private var passive = 0
    private var active = 0
    private var timeSensitive = 0
    private var critical = 0

    /// No alert waits.
    public init() {}

    /// Counts the instances of `engine` that wait for an answer, each under its alert's priority
    /// (`active` for an alert no longer configured). Walks every history: call it when answers
    /// or deliveries changed, not per packet.
    public init(_ engine: AlertEngine) {
        for history in engine.state.history.values where history.isAwaitingAnswer {
            self[engine.configuration.rules[history.key.alertID]?.policy.priority ?? .active] += 1
        }
    }

    /// The count of `priority`.
    public subscript(priority: AlertPriority) -> Int {
        get {
            switch priority {
            case .passive: passive
            case .active: active
            case .timeSensitive: timeSensitive
            case .critical: critical
            }
        }
        set {
            switch priority {
            case .passive: passive = newValue
            case .active: active = newValue
            case .timeSensitive: timeSensitive = newValue
            case .critical: critical = newValue
            }
        }
    }

    /// All levels together.
    public var total: Int { passive + active + timeSensitive + critical }
}
