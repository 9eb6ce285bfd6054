import BeaconHTTP
import Foundation

/// POSTs each event's JSON to a URL: 2xx confirms, anything else (or no answer within the
/// timeout) is retried later.
///
/// Every request carries `Idempotency-Key` (the event's key, the same on every retry and after a
/// restart, so the receiver can drop repeats) and, when a secret is configured,
/// `X-Beacond-Signature: sha256=<hex HMAC-SHA256 of the body with the secret>`. An event whose
/// alert has a callback destination for its kind goes there instead of the default URL.
public struct WebhookSink: AlertSink {
    /// The default URL.
    public let url: String
    /// The HMAC key, if requests are signed.
    public let secret: String?
    /// The time allowed for one request.
    public let timeout: Duration
    private let client: HTTPClient

    /// Creates a sink posting to `url`.
    /// - Throws: ``SinkError/invalidURL(_:)`` unless `url` is http(s).
    public init(
        url: String, secret: String? = nil, timeout: Duration = .seconds(10),
        client: HTTPClient = .shared
    ) throws(SinkError) {
        try Self.validate(url)
        self.url = url
        self.secret = secret
        self.timeout = timeout
        self.client = client
    }

    /// A 2xx answer is final: each event leaves the outbox once confirmed.
    public var confirmsEachDelivery: Bool { true }

    /// `webhook:` and the default URL.
    public var name: String { "webhook:" + url }

    /// Posts the event; returns on a 2xx answer.
    public func deliver(_ event: OutboundEvent) async throws {
        let target = event.destination ?? url
        try Self.validate(target)
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json"), ("Idempotency-Key", event.key)]
        if let secret {
            headers.append(("X-Beacond-Signature", "sha256=" + Self.signature(of: event.body, secret: secret)))
        }
        let request = HTTPRequest(method: "POST", url: target, headers: headers, body: Array(event.body.utf8), timeout: timeout)
        let response: HTTPResponse
        do {
            response = try await client.send(request, maximumBodySize: 64 * 1024)
        } catch {
            throw SinkError.http(url: target, reason: error.description)
        }
        guard (200..<300).contains(response.status) else {
            throw SinkError.httpStatus(url: target, status: response.status)
        }
    }

    /// The lowercase hex HMAC-SHA256 of `body` keyed with `secret` (both as UTF-8).
    public static func signature(of body: String, secret: String) -> String {
        let code = HMACSHA256.authenticationCode(for: body.utf8, key: secret.utf8)
        return code.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    static func validate(_ url: String) throws(SinkError) {
        guard url.hasPrefix("http://") || url.hasPrefix("https://"), URL(string: url)?.host != nil else {
            throw .invalidURL(url)
        }
    }
}
