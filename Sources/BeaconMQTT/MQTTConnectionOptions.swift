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
    /// MQTT's keep-alive: the client pings the broker when it has sent nothing for this long, and
    /// the broker declares the client gone (publishing its last will) after one and a half times
    /// this without a word from it. At least 5 s (libmosquitto's floor); 30 s by default.
    public var keepAlive: Duration

    /// The keep-alive's floor: libmosquitto refuses less.
    public static let minimumKeepAlive = Duration.seconds(5)

    /// Creates options (the defaults: anonymous, plain TCP, no status topic, a 30 s keep-alive).
    public init(
        username: String? = nil, password: String? = nil, tls: TLS? = nil, statusTopic: String? = nil,
        keepAlive: Duration = .seconds(30)
    ) {
        self.username = username
        self.password = password
        self.tls = tls
        self.statusTopic = statusTopic
        self.keepAlive = max(keepAlive, Self.minimumKeepAlive)
    }
}
