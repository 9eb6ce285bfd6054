import BeaconConfiguration
import BeaconMQTT

extension MQTTConnectionOptions {
    /// Reads `username`, `password` and `tls: {ca, cert, key}` of an MQTT sink or a site's
    /// broker (the caller checks the keys; no status topic).
    init(node: ConfigNode) throws(ConfigurationError) {
        self.init()
        username = try node["username"]?.string()
        password = try node["password"]?.string()
        if password != nil && username == nil {
            throw node.error("a password needs a username: add 'username:'")
        }
        if let tlsNode = node["tls"] {
            try tlsNode.checkKeys(allowed: ["ca", "cert", "key"])
            let tls = TLS(
                caFile: try tlsNode.required("ca").filePath(), certFile: try tlsNode["cert"]?.filePath(),
                keyFile: try tlsNode["key"]?.filePath())
            if (tls.certFile == nil) != (tls.keyFile == nil) { throw tlsNode.error("give both 'cert' and 'key', or neither") }
            self.tls = tls
        }
        if let keepAliveNode = node["keepAlive"] {
            let keepAlive = try keepAliveNode.duration()
            guard keepAlive >= Self.minimumKeepAlive, keepAlive <= .seconds(3600) else {
                throw keepAliveNode.error("a keep-alive is 5s to 1h (MQTT's floor and a sensible ceiling)")
            }
            self.keepAlive = keepAlive
        }
    }
}
