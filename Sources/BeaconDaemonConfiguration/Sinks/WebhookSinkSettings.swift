import BeaconConfiguration
import BeaconSinks

/// `{type: webhook, url: https://…, secret: …, timeout: 10s}`: an HTTP POST of each event,
/// signed with HMAC-SHA256 when a secret is given; alerts' callbacks go to their own URLs.
public struct WebhookSinkSettings: SinkSettings {
    /// The default URL.
    public var url: String
    /// The signing key, if requests are signed.
    public var secret: String?
    /// The time allowed for one request.
    public var timeout: Duration

    /// Creates settings.
    public init(url: String, secret: String? = nil, timeout: Duration = .seconds(10)) {
        self.url = url
        self.secret = secret
        self.timeout = timeout
    }

    public var target: String { url }
    public var sendsCallbacks: Bool { true }

    public func makeSink() throws -> BuiltSink {
        BuiltSink(try WebhookSink(url: url, secret: secret, timeout: timeout))
    }

    /// The `webhook` kind.
    public static let kind = SinkKind(type: "webhook", keys: ["url", "secret", "timeout"]) { node throws(ConfigurationError) in
        let urlNode = try node.required("url")
        let url = try urlNode.string()
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw urlNode.error("'\(url)' is not an http:// or https:// URL")
        }
        return WebhookSinkSettings(
            url: url, secret: try node["secret"]?.string(),
            timeout: try SinkKind.timeout(node, default: .seconds(10)))
    }
}
