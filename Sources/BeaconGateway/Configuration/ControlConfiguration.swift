import BeaconConfiguration

/// The HTTP control endpoint (`http:` in the configuration): metrics, health, posted events.
///
/// ```yaml
/// http: {listen: 127.0.0.1:9464}     # the default address when `http:` is given as `on`
/// ```
/// It is off unless configured. It has no authentication: keep it on the loopback interface (the
/// default) or behind a proxy that has; the daemon warns when it listens anywhere else.
public struct ControlConfiguration: Hashable, Sendable {
    /// The address to bind.
    public var host: String
    /// The port to bind (0: any free port, which the daemon logs).
    public var port: Int

    /// The default: 127.0.0.1:9464 (the port Prometheus exporters use for such daemons).
    public init(host: String = "127.0.0.1", port: Int = 9464) {
        self.host = host
        self.port = port
    }

    /// Whether the address is a loopback one.
    public var isLoopback: Bool { host == "localhost" || host == "::1" || host.hasPrefix("127.") }

    /// Reads `http:`: `on`, `off`, or `{listen: HOST:PORT}`; `nil` when off.
    static func read(_ node: ConfigNode) throws(ConfigurationError) -> ControlConfiguration? {
        if let text = node.scalarText {
            switch text.lowercased() {
            case "on", "true": return ControlConfiguration()
            case "off", "false": return nil
            default: throw node.error("'\(text)' is not on, off or {listen: HOST:PORT}")
            }
        }
        try node.checkKeys(allowed: ["listen"])
        guard let listenNode = node["listen"] else { return ControlConfiguration() }
        let listen = try listenNode.string()
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
            (0...65535).contains(port), colon > listen.startIndex
        else {
            throw listenNode.error("'\(listen)' is not HOST:PORT (e.g. 127.0.0.1:9464)")
        }
        var host = String(listen[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return ControlConfiguration(host: host, port: port)
    }
}
