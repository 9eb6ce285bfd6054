import BeaconConfiguration
import BeaconCore
import BeaconMQTT
import BeaconSinks
import BeaconSiteReport

/// An `mqtt` sink's settings:
///
/// ```yaml
/// - type: mqtt
///   host: broker.local            # default 127.0.0.1
///   port: 8883                    # default 1883
///   gateway: lobby                # default: the host name; topics are beacond/<gateway>/…
///   username: beacond
///   password: secret
///   tls: {ca: /etc/beacond/ca.pem, cert: client.pem, key: client.key}   # cert and key optional
///   beacons: true                 # retained state per beacon under beacond/<gateway>/beacons/<id>
///   status: true                  # retained online/offline under beacond/<gateway>/status (last will)
///   homeAssistant: true           # discovery of the named beacons (beacons:) under homeassistant/; default off
///                                 # or {prefix: homeassistant, roomTopic: room_presence} (roomTopic: false: no mqtt_room)
///   commands: true                # take acknowledge/dismiss/unsuppress under beacond/<gateway>/commands/…; default off
///                                 # or {keys: {head-nurse: {keyFile: nurse.key}}, tokens: {home-assistant: SECRET}}:
///                                 # then only commands sealed with a key, or carrying a token, are taken
///   timeout: 10s
/// ```
public struct MQTTSinkSettings: SinkSettings {
    /// The broker's host.
    public var host: String
    /// The broker's port.
    public var port: Int
    /// The gateway's name in topics.
    public var gateway: String
    /// Where events are published (default `beacond/<gateway>/alerts`).
    public var topic: String
    /// How long a delivery waits for the connection and for the PUBACK.
    public var timeout: Duration
    /// Credentials, TLS and the status topic.
    public var connection: MQTTConnectionOptions
    /// Whether each beacon's state is published, retained, under ``beaconTopicPrefix``.
    public var beaconState: Bool
    /// The Home Assistant discovery prefix, when discovery is on.
    public var homeAssistantPrefix: String?
    /// Whether the daemon takes answers to its alerts from `beacond/<gateway>/commands/<action>`
    /// (``commandTopicPrefix``).
    public var commands: Bool
    /// The keys that seal commands, by the name answers are recorded under (empty: commands
    /// need no key, unless ``commandTokens`` has some).
    public var commandKeys: [String: [UInt8]] = [:]
    /// The tokens of clients that cannot seal a command (Home Assistant's button), by name.
    public var commandTokens: [String: String] = [:]
    /// Where `mqtt_room` messages go (`room_presence/<room>`) when discovery is on; `nil`: none.
    public var homeAssistantRoomTopic: String? = "room_presence"
    /// The named beacons: the only ones Home Assistant hears of (filled in from the
    /// configuration's `beacons:`).
    public var beacons: BeaconDirectory = .empty
    /// The people (`people:`): with discovery on, each is a Home Assistant device tracker.
    public var people: [Person] = []
    /// The site's rooms (a hub's): with discovery on and people named, each gets a sensor of the
    /// people in it.
    public var rooms: [String] = []
    /// True when the sink belongs to a site hub (rooms and positions; filled in from `source: hub`).
    public var onHub = false
    /// The alert ids, Home Assistant's event types (filled in from `alerts:`).
    public var alertIDs: [String] = []
    /// Where the beacons announced to Home Assistant are remembered across restarts, so that an
    /// un-named one's entities are removed (next to the state file; `nil` without one).
    public var homeAssistantLedgerPath: String?

    /// What Home Assistant is told, when discovery is on.
    public var homeAssistant: HomeAssistantDiscovery? {
        homeAssistantPrefix.map { prefix in
            HomeAssistantDiscovery(
                prefix: prefix, gateway: gateway, beaconTopicPrefix: beaconTopicPrefix,
                statusTopic: connection.statusTopic, onHub: onHub, alertIDs: alertIDs, roomTopic: homeAssistantRoomTopic,
                commandTopic: commands ? commandTopicPrefix : nil, commandToken: commandTokens[Self.homeAssistantTokenName])
        }
    }

    /// The name of the token Home Assistant's button carries (`commands.tokens.home-assistant`).
    public static let homeAssistantTokenName = "home-assistant"

    /// Reads `commands:` — `true`/`false`, or `{keys: {NAME: {key: HEX}|{keyFile: PATH}}, tokens:
    /// {NAME: SECRET}}` (commands on, and only those sealed with a key or carrying a token taken).
    static func readCommands(
        _ node: ConfigNode?
    ) throws(ConfigurationError) -> (on: Bool, keys: [String: [UInt8]], tokens: [String: String]) {
        guard let node else { return (false, [:], [:]) }
        guard node.isMapping else { return (try node.bool(), [:], [:]) }
        try node.checkKeys(allowed: ["keys", "tokens"], in: "commands")
        var keys: [String: [UInt8]] = [:]
        for (name, entry) in try node["keys"]?.mapping() ?? [] {
            guard SiteGateway.isValidID(name) else {
                throw entry.error("a key's name is 1–64 letters, digits, '-', '_' or '.': '\(name.prefix(70))' is not")
            }
            try entry.checkKeys(allowed: ["key", "keyFile"], in: "commands.keys.\(name)")
            guard let key = try GatewayKey.read(from: entry) else { throw entry.error("give key: or keyFile:") }
            keys[name] = key.bytes
        }
        var tokens: [String: String] = [:]
        for (name, entry) in try node["tokens"]?.mapping() ?? [] {
            let token = try entry.string()
            guard token.utf8.count >= 16 else {
                throw entry.error("a token is at least 16 characters (`openssl rand -hex 16` makes one)")
            }
            tokens[name] = token
        }
        guard !keys.isEmpty || !tokens.isEmpty else {
            throw node.error("give commands.keys or commands.tokens (or commands: true for an open channel)")
        }
        return (true, keys, tokens)
    }

    /// Creates settings; the defaults are those of the configuration file.
    public init(
        host: String = "127.0.0.1", port: Int = 1883, gateway: String, topic: String? = nil,
        timeout: Duration = .seconds(10), connection: MQTTConnectionOptions? = nil, beaconState: Bool = true,
        homeAssistantPrefix: String? = nil, commands: Bool = false
    ) {
        self.host = host
        self.port = port
        self.gateway = gateway
        self.topic = topic ?? MQTTSink.defaultTopic(gateway: gateway)
        self.timeout = timeout
        self.connection = connection ?? MQTTConnectionOptions(statusTopic: Self.statusTopic(gateway: gateway))
        self.beaconState = beaconState
        self.homeAssistantPrefix = homeAssistantPrefix
        self.commands = commands
    }

    /// `beacond/<gateway>/commands`: answers arrive under `…/acknowledge`, `…/dismiss`,
    /// `…/unsuppress`; what became of each is published to `…/result`.
    public var commandTopicPrefix: String { "beacond/\(gateway)/commands" }

    /// `beacond/<gateway>/status`: the retained online/offline topic.
    public static func statusTopic(gateway: String) -> String { "beacond/\(gateway)/status" }

    /// `beacond/<gateway>/beacons`.
    public var beaconTopicPrefix: String { "beacond/\(gateway)/beacons" }

    public var target: String { "//\(host):\(port)/\(topic)" }

    public func makeSink() throws -> BuiltSink {
        let sink = try MQTTSink(host: host, port: port, topic: topic, options: connection, timeout: timeout)
        let state = MQTTBeaconState(sink: sink, settings: self)
        guard let discovery = homeAssistant else { return BuiltSink(sink, stateObserver: state) }
        return BuiltSink(HomeAssistantEventSink(sink, discovery: discovery, beacons: beacons), stateObserver: state)
    }

    /// The `mqtt` kind.
    public static let kind = SinkKind(type: "mqtt", keys: keys) { node throws(ConfigurationError) in
        try MQTTSinkSettings(node: node, timeout: try SinkKind.timeout(node, default: .seconds(10)))
    }

    /// The keys of an entry besides `type` and `name` (``SinkKind`` checks them).
    static let keys = [
        "host", "port", "gateway", "topic", "timeout", "username", "password", "tls", "keepAlive",
        "beacons", "status", "homeAssistant", "commands",
    ]

    /// Reads the settings of an `mqtt` entry (its keys already checked by its kind).
    init(node: ConfigNode, timeout: Duration) throws(ConfigurationError) {
        let gateway = try node["gateway"]?.string() ?? SinkDefinition.hostName()
        guard !gateway.isEmpty, !gateway.contains(where: { "/+#".contains($0) }) else {
            throw (node["gateway"] ?? node).error(
                "the gateway name '\(gateway)' cannot be used in MQTT topics (no '/', '+' or '#')")
        }
        var connection = try MQTTConnectionOptions(node: node)
        if try node["status"]?.bool() ?? true { connection.statusTopic = Self.statusTopic(gateway: gateway) }
        var homeAssistant: String?
        var roomTopic: String? = "room_presence"
        if let discovery = node["homeAssistant"] {
            if discovery.isMapping {
                try discovery.checkKeys(allowed: ["prefix", "roomTopic"])
                homeAssistant = try discovery["prefix"]?.string() ?? "homeassistant"
                if let topic = discovery["roomTopic"] {
                    if let off = try? topic.bool() {
                        guard !off else { throw topic.error("roomTopic: a topic such as room_presence, or false for none") }
                        roomTopic = nil
                    } else {
                        roomTopic = try topic.string()
                        guard let roomTopic, !roomTopic.isEmpty, !roomTopic.contains(where: { "+#".contains($0) }) else {
                            throw topic.error("roomTopic must be a topic without wildcards, such as room_presence")
                        }
                    }
                }
            } else if try discovery.bool() {
                homeAssistant = "homeassistant"
            }
        }
        let commands = try Self.readCommands(node["commands"])
        let beaconState = try node["beacons"]?.bool() ?? true
        if homeAssistant != nil && !beaconState {
            throw node.error("homeAssistant discovery points at the beacon state topics: it needs 'beacons: true'")
        }
        self.init(
            host: try node["host"]?.string() ?? "127.0.0.1", port: try node["port"]?.integer(in: 1...65535) ?? 1883,
            gateway: gateway, topic: try node["topic"]?.string(), timeout: timeout, connection: connection,
            beaconState: beaconState, homeAssistantPrefix: homeAssistant, commands: commands.on)
        commandKeys = commands.keys
        commandTokens = commands.tokens
        homeAssistantRoomTopic = roomTopic
    }
}
