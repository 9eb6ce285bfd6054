import BeaconCore

/// A person's (or a system's) answer to an alert instance, as the engine keeps it.
public struct AlertAnswer: Hashable, Sendable {
    /// What the answer says.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Seen and taken: the reminders stop.
        case acknowledged
        /// Set aside: the reminders stop, and the alert may be suppressed for the beacon.
        case dismissed
        /// Called off: a scheduled instance is not delivered, a reminding one reminds no more
        /// (AlertFlag's `action=cancel`). Only a reminding instance keeps this answer in its
        /// history; a scheduled one is simply gone.
        case cancelled

        /// The lifecycle event the answer is.
        public var eventKind: AlertEvent.Kind {
            switch self {
            case .acknowledged: .acknowledged
            case .dismissed: .dismissed
            case .cancelled: .cancelled
            }
        }
    }

    /// What it says.
    public var kind: Kind
    /// The due time of the instance it answers.
    public var instanceDue: Timestamp
    /// Who answered and how: `"nurse-2 via http"`.
    public var by: String
    /// When the engine took it.
    public var at: Timestamp

    /// Creates an answer.
    public init(kind: Kind, instanceDue: Timestamp, by: String, at: Timestamp) {
        self.kind = kind
        self.instanceDue = instanceDue
        self.by = by
        self.at = at
    }
}
