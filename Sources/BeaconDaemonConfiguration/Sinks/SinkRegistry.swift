/// The kinds of sink a configuration may name, by `type:`. ``builtIn`` has `jsonl`, `webhook`,
/// `exec` and `mqtt`; an application embedding beacond registers its own kinds the same way.
public struct SinkRegistry: Sendable {
    private var kinds: [String: SinkKind] = [:]
    /// The `type:` values, in registration order (for messages).
    public private(set) var types: [String] = []

    /// An empty registry.
    public init() {}

    /// The stock kinds.
    public static let builtIn: SinkRegistry = {
        var registry = SinkRegistry()
        for kind in [JSONLinesSinkSettings.kind, WebhookSinkSettings.kind, ExecSinkSettings.kind, MQTTSinkSettings.kind] {
            registry.register(kind)
        }
        return registry
    }()

    /// Adds `kind`, replacing a kind of the same `type`.
    public mutating func register(_ kind: SinkKind) {
        if kinds.updateValue(kind, forKey: kind.type) == nil { types.append(kind.type) }
    }

    /// The kind registered for `type`.
    public func kind(_ type: String) -> SinkKind? { kinds[type] }
}
