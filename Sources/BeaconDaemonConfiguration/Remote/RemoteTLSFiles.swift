import BeaconConfiguration
import Foundation

/// The client certificate a remote alert document's server asks for (mutual TLS):
///
/// ```yaml
/// tls: {cert: gateway.pem, key: gateway.key, ca: config-ca.pem}   # ca: optional (the system's)
/// ```
///
/// PEM files, the key unencrypted; a relative path is taken from the configuration file's
/// directory, and each must be readable when the configuration is read.
public struct RemoteTLSFiles: Hashable, Sendable {
    /// The client certificate.
    public var certificate: String
    /// Its private key.
    public var key: String
    /// The authority the server's certificate is checked against (`nil`: the system's).
    public var authority: String?

    /// Creates the files' description.
    public init(certificate: String, key: String, authority: String? = nil) {
        self.certificate = certificate
        self.key = key
        self.authority = authority
    }

    /// Reads `{cert, key, ca?}`.
    init(node: ConfigNode) throws(ConfigurationError) {
        try node.checkKeys(allowed: ["cert", "key", "ca"])
        guard let certNode = node["cert"], let keyNode = node["key"] else {
            throw node.error("tls needs cert and key (the client certificate and its key, PEM files); ca is optional")
        }
        func file(_ node: ConfigNode, _ what: String) throws(ConfigurationError) -> String {
            let path = try node.filePath()
            if let reason = UnreadableFile.reason(path) {
                throw node.error("cannot read the \(what) \(path): it \(reason)")
            }
            return path
        }
        certificate = try file(certNode, "client certificate")
        key = try file(keyNode, "client key")
        authority = try node["ca"].map { n throws(ConfigurationError) in try file(n, "certificate authority") }
    }
}
