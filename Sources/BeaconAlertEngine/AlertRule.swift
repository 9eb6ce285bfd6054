import BeaconCore

/// One alert definition as the engine sees it: its id, what it says and its policy.
public struct AlertRule: Hashable, Sendable {
    /// The alert definition's id (``StrategyFiring/alertID``).
    public var id: String
    /// The content copied into every event.
    public var content: AlertContent
    /// How it is scheduled, repeated, windowed, cancelled and routed.
    public var policy: AlertPolicy
    /// What varies in its content from one event to the next (templates, a list of messages);
    /// `nil` when every event says `content` as it is. The pipeline fills it in.
    public var variations: ContentVariations?

    /// Creates a rule.
    public init(
        id: String, content: AlertContent = AlertContent(), policy: AlertPolicy = .default,
        variations: ContentVariations? = nil
    ) {
        self.id = id
        self.content = content
        self.policy = policy
        self.variations = variations
    }
}
