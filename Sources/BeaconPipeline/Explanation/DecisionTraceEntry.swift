import BeaconCore

/// One line of a ``DecisionTimeline``: something that changed for the alert and beacon it
/// follows, when, and what ranging said then.
public struct DecisionTraceEntry: Hashable, Sendable {
    /// What changed.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Ranging started tracking the beacon (or heard it again after a missed cycle).
        case heard
        /// Ranging missed it this cycle (its grace), or stopped tracking it.
        case unheard
        /// Its proximity zone or its room changed.
        case moved
        /// The strategy's own words on where the beacon stands changed.
        case strategy
        /// The strategy's condition started or stopped holding.
        case condition
        /// The strategy fired (its action is now done).
        case fired
        /// The strategy's action status went back to waiting (and why).
        case reset
        /// The engine ignored a firing (firing mode, cooldown, suppression).
        case ignored
        /// An engine event: created, delivered, cancelled, answered, error.
        case event
    }

    /// When (the cycle's end, or the event's time).
    public var time: Timestamp
    /// What changed.
    public var kind: Kind
    /// What changed, in words.
    public var text: String
    /// What ranging said of the beacon at that cycle.
    public var evidence: DecisionEvidence

    /// Creates an entry.
    public init(time: Timestamp, kind: Kind, text: String, evidence: DecisionEvidence) {
        self.time = time
        self.kind = kind
        self.text = text
        self.evidence = evidence
    }
}
