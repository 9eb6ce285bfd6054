/// Where a foreign node publishes: its kind, the topic prefix and the name its topics carry.
///
/// - ESPresense: `<prefix>/devices/<device id>/<name>` (the name is the node's room slug) and
///   `<prefix>/rooms/<name>/status`.
/// - OpenMQTTGateway / Theengs: `<prefix>/<name>/BTtoMQTT/…` (the name is the gateway's).
public struct ForeignNodeEndpoint: Hashable, Sendable {
    /// The firmware.
    public var kind: ForeignNodeKind
    /// The first topic level(s): `espresense` or `home` unless the node was configured otherwise.
    public var prefix: String
    /// The room (ESPresense) or gateway name (OpenMQTTGateway, Theengs) in the topics.
    public var name: String

    /// Creates an endpoint; `prefix` defaults to the kind's.
    public init(kind: ForeignNodeKind, name: String, prefix: String? = nil) {
        self.kind = kind
        self.name = name
        self.prefix = prefix ?? kind.defaultTopicPrefix
    }

    /// The MQTT topic filters that receive everything this node publishes that a hub uses.
    public var subscriptions: [String] {
        switch kind {
        case .espresense: ["\(prefix)/devices/+/\(name)", "\(prefix)/rooms/\(name)/status"]
        case .openMQTTGateway, .theengs: ["\(prefix)/\(name)/BTtoMQTT/#"]
        }
    }

    /// What `topic` is to this node, or `nil` when it is not one of its topics.
    public func classify(_ topic: String) -> ForeignTopic? {
        guard topic.hasPrefix(prefix + "/") else { return nil }
        let rest = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        switch kind {
        case .espresense:
            if rest.count == 3, rest[0] == "devices", rest[2] == name, !rest[1].isEmpty {
                return .device(String(rest[1]))
            }
            if rest.count == 3, rest[0] == "rooms", rest[1] == name, rest[2] == "status" { return .status }
            return nil
        case .openMQTTGateway, .theengs:
            // `BTtoMQTT/<MAC>`, `BTtoMQTT/undecoded` (the external decoder's topic) and deeper levels: read alike.
            guard rest.count >= 3, rest[0] == name, rest[1] == "BTtoMQTT", !rest[rest.count - 1].isEmpty else { return nil }
            return .device(String(rest[rest.count - 1]))
        }
    }

    /// Whether a topic name can be used as a single MQTT topic level (no `/`, `+`, `#`, not empty).
    public static func isValidTopicLevel(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 128 && !text.contains(where: { $0 == "/" || $0 == "+" || $0 == "#" })
    }
}

/// What a foreign node's topic names.
public enum ForeignTopic: Hashable, Sendable {
    /// A device message; the last-but-one level (ESPresense: the device id) or the last
    /// (OpenMQTTGateway: the MAC, or the beacon UUID with `pubBeaconUuidForTopic`).
    case device(String)
    /// The node's availability (ESPresense's `status`, its last will).
    case status
}
