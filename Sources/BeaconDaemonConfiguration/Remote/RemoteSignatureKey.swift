import BeaconConfiguration
import Foundation

/// The secret a remote alert document is signed with (`signature: {keyFile: F}`): its server sends
/// `X-Beacond-Signature: sha256=<hex HMAC-SHA256 of the document, keyed with the secret>` — the
/// webhooks' scheme, over the document alone — and a document whose signature is missing or
/// wrong is refused (a `bad-signature` check), the last good set kept.
///
/// The file holds the secret on one line; it is read again at every check, a relative path is
/// taken from the configuration file's directory, and the secret is never logged.
public struct RemoteSignatureKey: Hashable, Sendable {
    /// The file holding the secret.
    public var file: String

    /// Creates the key's description.
    public init(file: String) { self.file = file }

    /// The secret, read from ``file`` now.
    /// - Throws: ``RemoteCredentialsError`` when the file cannot be read or is empty.
    public func secret() throws(RemoteCredentialsError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: file) else { throw .unreadable(file) }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, !text.contains("\n") else { throw .malformed(file) }
        return Array(text.utf8)
    }

    /// Reads `{keyFile: PATH}`, checking that the file can be read now.
    init(node: ConfigNode) throws(ConfigurationError) {
        try node.checkKeys(allowed: ["keyFile"])
        guard let fileNode = node["keyFile"] else {
            throw node.error("signature needs keyFile (a file holding the secret the documents are signed with)")
        }
        let path = try fileNode.filePath()
        file = path
        do throws(RemoteCredentialsError) { _ = try secret() } catch { throw fileNode.error(error.description) }
    }
}
