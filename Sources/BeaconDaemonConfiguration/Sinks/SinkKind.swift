import BeaconConfiguration

/// One kind of sink as the configuration knows it: its `type:`, its keys, and how an entry is
/// read into its ``SinkSettings``. A new kind of sink is one registration in a ``SinkRegistry``.
public struct SinkKind: Sendable {
    /// The `type:` value (`webhook`).
    public let type: String
    /// The keys an entry may have besides `type` and `name`.
    public let keys: [String]
    private let read: @Sendable (ConfigNode) throws(ConfigurationError) -> any SinkSettings

    /// Creates a kind; `read` gets the entry (its keys already checked against `keys`).
    public init(
        type: String, keys: [String],
        read: @escaping @Sendable (ConfigNode) throws(ConfigurationError) -> any SinkSettings
    ) {
        self.type = type
        self.keys = keys
        self.read = read
    }

    /// Reads an entry of this kind.
    public func settings(from node: ConfigNode) throws(ConfigurationError) -> any SinkSettings {
        try node.checkKeys(allowed: ["type", "name"] + keys)
        return try read(node)
    }

    /// The entry's `timeout:`, positive, or `value`.
    public static func timeout(_ node: ConfigNode, default value: Duration) throws(ConfigurationError) -> Duration {
        guard let timeoutNode = node["timeout"] else { return value }
        let timeout = try timeoutNode.duration()
        guard timeout > .zero else { throw timeoutNode.error("timeout must be positive") }
        return timeout
    }
}
