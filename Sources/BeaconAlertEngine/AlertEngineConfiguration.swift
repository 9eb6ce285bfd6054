import BeaconCore

/// The alert engine's configuration: its rules and the pending cap. Immutable.
public struct AlertEngineConfiguration: Hashable, Sendable {
    /// The rules by alert id.
    public let rules: [String: AlertRule]
    /// The most alerts scheduled (pending) at once across all rules and beacons (`maxPending`).
    public let maxPending: Int

    /// The ids of alerts whose delivery cancels some other alert (`cancelOn: alertDelivered`).
    public let watchedDeliveries: Set<String>
    /// True when some rule cancels on a region exit, a beacon exit or a named event.
    let hasFactCancellations: Bool
    /// True when some rule has a `scheduleCondition` or `deliverWhen`: the caller then keeps an
    /// ``AlertWorld`` for the engine to look at.
    public let hasConditions: Bool
    /// The ids of the alerts with `firstStart: quiet`, in order.
    public let quietAtFirstStart: [String]
    /// Whether some rule's content varies (``AlertRule/variations``): its caller fills it in.
    public let hasContentVariations: Bool
    /// Whether some rule's content names a beacon's room or dwell (its caller then needs the
    /// latest cycle's beacons to fill it in).
    public let contentNeedsBeacons: Bool

    /// The default cap, as iOS caps local notifications.
    public static let defaultMaxPending = 64

    /// Creates a configuration; a later rule with the same id replaces an earlier one.
    public init(rules: [AlertRule], maxPending: Int = defaultMaxPending) throws(AlertPolicyError) {
        guard maxPending >= 1 else { throw .invalidMaxPending(maxPending) }
        var byID: [String: AlertRule] = [:]
        for rule in rules { byID[rule.id] = rule }
        self.rules = byID
        self.maxPending = maxPending
        var watched = Set<String>()
        var facts = false
        for rule in byID.values {
            for condition in rule.policy.cancelOn {
                if case .alertDelivered(let alertID) = condition { watched.insert(alertID) } else { facts = true }
            }
        }
        watchedDeliveries = watched
        hasFactCancellations = facts
        hasConditions = byID.values.contains { $0.policy.hasConditions }
        quietAtFirstStart = byID.values.filter { $0.policy.firstStart == .quiet }.map(\.id).sorted()
        hasContentVariations = byID.values.contains { $0.variations != nil }
        contentNeedsBeacons = byID.values.contains { $0.variations?.needsBeacons == true }
    }
}
