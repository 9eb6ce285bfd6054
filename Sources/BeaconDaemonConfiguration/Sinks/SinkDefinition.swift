#if canImport(Glibc)
import BeaconConfiguration
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One entry of `sinks:` in the configuration: where alert events are delivered.
///
/// ```yaml
/// sinks:
///   - {type: jsonl, path: -}                       # stdout, or a file (appended, fsynced)
///   - {type: webhook, url: https://…, secret: …, timeout: 10s}
///   - {type: exec, command: "notify-send beacond", timeout: 30s}
///   - {type: mqtt, host: 127.0.0.1, port: 1883, gateway: lobby}   # beacond/lobby/alerts; see MQTTSinkSettings
/// ```
/// Each sink has its own outbox, keyed by its `name` (by default `type:target`, e.g.
/// `webhook:https://…`): rename it and what waited under the old name is no longer delivered.
public struct SinkDefinition: Hashable, Sendable {
    /// The sink's outbox key.
    public var name: String
    /// Its kind's `type:` (`webhook`).
    public var type: String
    /// What it is, read by its ``SinkKind``.
    public var settings: any SinkSettings

    /// Creates a definition; `name` defaults to `type:target`.
    public init(name: String? = nil, type: String, settings: any SinkSettings) {
        self.name = name ?? "\(type):\(settings.target)"
        self.type = type
        self.settings = settings
    }

    /// Reads the definition at `node` with the kind its `type:` names in `registry`.
    init(node: ConfigNode, registry: SinkRegistry) throws(ConfigurationError) {
        let typeNode = try node.required("type")
        let type = try typeNode.choice(registry.types)
        guard let kind = registry.kind(type) else { throw typeNode.error("no sink kind '\(type)'") }
        self.init(name: try node["name"]?.string(), type: type, settings: try kind.settings(from: node))
    }

    public static func == (lhs: SinkDefinition, rhs: SinkDefinition) -> Bool {
        lhs.name == rhs.name && lhs.type == rhs.type && AnyHashable(lhs.settings) == AnyHashable(rhs.settings)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(type)
        hasher.combine(AnyHashable(settings))
    }

    /// This machine's host name (the default gateway name in MQTT topics).
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "gateway" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
