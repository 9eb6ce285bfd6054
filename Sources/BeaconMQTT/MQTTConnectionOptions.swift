/// How the MQTT client connects: credentials, TLS, and the gateway's status topic.
public struct MQTTConnectionOptions: Hashable, Sendable {
    /// TLS settings: the CA that signed the broker's certificate, and an optional client certificate.
    public struct TLS: Hashable, Sendable {
        /// A PEM file of the certificate authorities to trust.
        public var caFile: String
        /// A PEM client certificate, for brokers that require one.
        public var certFile: String?
        /// The client certificate's PEM private key.
        public var keyFile: String?

        /// Creates TLS settings.
        public init(caFile: String, certFile: String? = nil, keyFile: String? = nil) {
            self.caFile = caFile
            self.certFile = certFile
            self.keyFile = keyFile
        }
    }

    /// The MQTT user name, if the broker requires one.
    public var username: String?
    /// The password that goes with ``username``.
    public var password: String?
    /// TLS, if the broker's listener uses it.
    public var tls: TLS?
    /// A retained status topic: `online` once connected, `offline` on an orderly stop, and
    /// `offline` as the last will the broker publishes when the connection is lost.
    public var statusTopic: String?

    /// Creates options (the defaults: anonymous, plain TCP, no status topic).
    public init(username: String? = nil, password: String? = nil, tls: TLS? = nil, statusTopic: String? = nil) {
        self.username = username
        self.password = password
        self.tls = tls
        self.statusTopic = statusTopic
    }
}
