import BeaconConfiguration
import Foundation
import FoundationEssentials

/// The HTTP control endpoint (`http:` in the configuration): metrics, health, posted events.
///
/// ```yaml
/// http: {listen: 127.0.0.1:9464}     # the default address when `http:` is given as `on`
/// http: {listen: 0.0.0.0:9464, tokenFile: /etc/beacond/control.token}
/// ```
/// It is off unless configured. With a token (`token:` or, better, `tokenFile:`), every request
/// must carry `Authorization: Bearer <token>`. On the loopback interface (the default) the
/// token is optional; on any other address it is required: the configuration is refused
/// without one.
public struct ControlConfiguration: Hashable, Sendable {
    /// The address to bind.
    public var host: String
    /// The port to bind (0: any free port, which the daemon logs).
    public var port: Int
    /// The bearer token every request must carry, if any.
    public var token: String?

    /// The default: 127.0.0.1:9464 (the port Prometheus exporters use for such daemons).
    public init(host: String = "127.0.0.1", port: Int = 9464, token: String? = nil) {
        self.host = host
        self.port = port
        self.token = token
    }

    /// Parses `HOST:PORT` (`[::1]:9464` for IPv6), without a token; `nil` when it is not of that form.
    public init?(listening text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port), colon > text.startIndex
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.init(host: host, port: port)
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
        try node.checkKeys(allowed: ["listen", "token", "tokenFile"])
        var control = ControlConfiguration()
        if let listenNode = node["listen"] {
            let listen = try listenNode.string()
            guard let address = ControlConfiguration(listening: listen) else {
                throw listenNode.error("'\(listen)' is not HOST:PORT (e.g. 127.0.0.1:9464)")
            }
            control.host = address.host
            control.port = address.port
        }
        control.token = try readToken(node)
        if control.token == nil, !control.isLoopback {
            throw (node["listen"] ?? node).error(
                "the endpoint on \(control.host) is reachable from other machines and has no token: set "
                    + "'tokenFile: PATH' (or 'token:'), which clients send as 'Authorization: Bearer …', or listen on 127.0.0.1")
        }
        return control
    }

    /// `token:` or `tokenFile:` (its first line; at least 16 characters either way).
    private static func readToken(_ node: ConfigNode) throws(ConfigurationError) -> String? {
        if node["token"] != nil, node["tokenFile"] != nil {
            throw node.error("give 'token' or 'tokenFile', not both")
        }
        var token: String
        let tokenNode: ConfigNode
        if let inline = node["token"] {
            tokenNode = inline
            token = try inline.string()
        } else if let file = node["tokenFile"] {
            tokenNode = file
            let path = try file.filePath()
            if let reason = UnreadableFile.reason(path) {
                throw file.error(
                    "cannot read the token file \(path): it \(reason); write the token (one line) there, e.g. `openssl rand -hex 32 > \(path)`"
                )
            }
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw file.error("the token file \(path) is not UTF-8 text; write the token (one line) there")
            }
            token = text
            token = String(token.split(whereSeparator: \.isNewline).first ?? "")
        } else {
            return nil
        }
        token = token.trimmingCharacters(in: .whitespaces)
        guard token.count >= 16, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw tokenNode.error(
                "a token must be at least 16 printable characters without spaces (e.g. `openssl rand -hex 32`)")
        }
        return token
    }
}
