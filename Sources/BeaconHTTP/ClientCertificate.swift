/// A client certificate for mutual TLS: the PEM files a server that asks for one is shown, and
/// the authority its own certificate is checked against.
public struct ClientCertificate: Hashable, Sendable {
    /// The certificate (PEM).
    public var certificateFile: String
    /// Its private key (PEM, unencrypted).
    public var keyFile: String
    /// The authority that signed the server's certificate (PEM); `nil`: the system's.
    public var authorityFile: String?

    /// Creates a client certificate.
    public init(certificateFile: String, keyFile: String, authorityFile: String? = nil) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.authorityFile = authorityFile
    }
}
