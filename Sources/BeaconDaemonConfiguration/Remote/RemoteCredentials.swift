import BeaconConfiguration
import Foundation

/// How a remote alert document's server is told who is asking (the Adtag SDK's credentials): a
/// header whose value is read from a file, so that the configuration can be readable by more
/// people than the secret.
///
/// ```yaml
/// auth: {bearerFile: config.token}                  # Authorization: Bearer <the file's text>
/// auth: {header: X-Api-Key, valueFile: config.key}  # X-Api-Key: <the file's text>
/// ```
///
/// The file is read again at every check (a rotated token is picked up without a restart); a
/// relative path is taken from the configuration file's directory. Its text, trimmed of
/// surrounding white space, is never logged.
public struct RemoteCredentials: Hashable, Sendable {
    /// The header's name (`Authorization` for a bearer token).
    public var header: String
    /// The file holding its value (the token alone, for a bearer token).
    public var file: String
    /// Whether the value is sent as `Bearer <token>`.
    public var bearer: Bool

    /// Creates credentials.
    public init(header: String = "Authorization", file: String, bearer: Bool = true) {
        self.header = header
        self.file = file
        self.bearer = bearer
    }

    /// The header to send, read from ``file`` now.
    /// - Throws: ``RemoteCredentialsError`` when the file cannot be read or is empty.
    public func headerValue() throws(RemoteCredentialsError) -> String {
        guard let data = FileManager.default.contents(atPath: file) else { throw .unreadable(file) }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, !text.contains("\n") else { throw .malformed(file) }
        return bearer ? "Bearer \(text)" : text
    }

    /// Reads `{bearerFile: PATH}` or `{header: NAME, valueFile: PATH}`, checking that the file
    /// can be read now.
    init(node: ConfigNode) throws(ConfigurationError) {
        try node.checkKeys(allowed: ["bearerFile", "header", "valueFile"])
        let fileNode: ConfigNode
        if let bearer = node["bearerFile"] {
            guard node["header"] == nil, node["valueFile"] == nil else {
                throw node.error("give either bearerFile (a token) or header with valueFile, not both")
            }
            fileNode = bearer
            header = "Authorization"
            self.bearer = true
        } else if let name = node["header"], let value = node["valueFile"] {
            header = try name.string()
            guard !header.isEmpty, header.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw name.error("'\(header.prefix(40))' is not a header name (letters, digits, - and _)")
            }
            fileNode = value
            bearer = false
        } else {
            throw node.error(
                "auth needs bearerFile (a file holding a token: Authorization: Bearer …) or header with valueFile")
        }
        let path = try fileNode.filePath()
        file = path
        do throws(RemoteCredentialsError) { _ = try headerValue() } catch { throw fileNode.error(error.description) }
    }
}

/// Why a remote document's credentials cannot be sent; the message says what to fix.
public enum RemoteCredentialsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file cannot be read.
    case unreadable(String)
    /// The file is empty, or holds more than one line.
    case malformed(String)

    /// What is wrong and what to do.
    public var description: String {
        switch self {
        case .unreadable(let path):
            "cannot read the credentials file \(path): it \(UnreadableFile.reason(path) ?? "could not be read")"
        case .malformed(let path):
            "the credentials file \(path) must hold the secret on one line (it is empty, or has several)"
        }
    }
}
