import BeaconAlertEngine
import BeaconCore
import BeaconStrategyKit

/// One alert as the pipeline runs it: which beacons, which strategy with which parameters, and
/// the engine's rule (content and policy).
///
/// A neutral value: the configuration file's `alerts:` entries, a remote document's and a test's
/// alerts all become these, so the pipeline knows nothing of YAML.
public struct PipelineAlert: Hashable, Sendable {
    /// Unique id, handed back in every event.
    public var id: String
    /// The beacons the alert applies to.
    public var match: BeaconMatch
    /// The strategy's key in the `StrategyRegistry`.
    public var strategy: String
    /// The strategy's parameters, validated by the registry when the pipeline is built.
    public var parameters: StrategyParameters
    /// What the alert says, and when and how it is delivered.
    public var rule: AlertRule
    /// Where the alert was written (`gateway.yaml:12`), to prefix errors about it; `nil` if nowhere.
    public var origin: String?

    /// Creates an alert; `rule` defaults to a rule with this id, no content and the default policy.
    public init(
        id: String, match: BeaconMatch = .any, strategy: String, parameters: StrategyParameters = [:],
        rule: AlertRule? = nil, origin: String? = nil
    ) {
        self.id = id
        self.match = match
        self.strategy = strategy
        self.parameters = parameters
        self.rule = rule ?? AlertRule(id: id)
        self.origin = origin
    }

    /// True when `other` has the same id, match, strategy key and parameters: its strategy (and
    /// the per-beacon state it holds) can carry over a replacement of the alerts.
    public func isSameStrategy(as other: PipelineAlert) -> Bool {
        id == other.id && match == other.match && strategy == other.strategy && parameters == other.parameters
    }
}
