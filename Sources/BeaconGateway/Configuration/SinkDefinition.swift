#if canImport(Glibc)
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
    /// What kind of sink, with its settings.
    public enum Kind: Hashable, Sendable {
        /// JSON lines to `path` (`-` for standard output).
        case jsonl(path: String)
        /// HTTP POST to `url`, signed with `secret` if given.
        case webhook(url: String, secret: String?, timeout: Duration)
        /// `/bin/sh -c command` with the event on stdin.
        case exec(command: String, timeout: Duration)
        /// MQTT QoS 1 publication of events, retained beacon state and status (see ``MQTTSinkSettings``).
        case mqtt(MQTTSinkSettings)
    }

    /// The sink's outbox key.
    public var name: String
    /// What it is.
    public var kind: Kind

    /// Creates a definition.
    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    static let types = ["jsonl", "webhook", "exec", "mqtt"]

    /// Reads the definition at `node`.
    init(node: ConfigNode) throws(ConfigurationError) {
        let type = try node.required("type").choice(Self.types)
        let target: String
        switch type {
        case "jsonl":
            try node.checkKeys(allowed: ["type", "name", "path"])
            let path = try node["path"]?.string() ?? "-"
            kind = .jsonl(path: path)
            target = path
        case "webhook":
            try node.checkKeys(allowed: ["type", "name", "url", "secret", "timeout"])
            let urlNode = try node.required("url")
            let url = try urlNode.string()
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw urlNode.error("'\(url)' is not an http:// or https:// URL")
            }
            kind = .webhook(
                url: url, secret: try node["secret"]?.string(),
                timeout: try Self.timeout(node, default: .seconds(10)))
            target = url
        case "mqtt":
            let settings = try MQTTSinkSettings(node: node, timeout: try Self.timeout(node, default: .seconds(10)))
            kind = .mqtt(settings)
            target = "//\(settings.host):\(settings.port)/\(settings.topic)"
        default:
            try node.checkKeys(allowed: ["type", "name", "command", "timeout"])
            let command = try node.required("command").string()
            kind = .exec(command: command, timeout: try Self.timeout(node, default: .seconds(30)))
            target = command
        }
        name = try node["name"]?.string() ?? "\(type):\(target)"
    }

    /// This machine's host name (the default gateway name in MQTT topics).
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "gateway" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func timeout(_ node: ConfigNode, default value: Duration) throws(ConfigurationError) -> Duration {
        guard let timeoutNode = node["timeout"] else { return value }
        let timeout = try timeoutNode.duration()
        guard timeout > .zero else { throw timeoutNode.error("timeout must be positive") }
        return timeout
    }
}
