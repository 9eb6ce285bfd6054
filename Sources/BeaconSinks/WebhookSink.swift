import BeaconCore
import BeaconCrypto
import BeaconHTTP
import Foundation

/// POSTs each event's JSON to a URL: 2xx confirms, anything else (or no answer within the
/// timeout) is retried later.
///
/// Every request carries `Idempotency-Key` (the event's key, the same on every retry and after a
/// restart, so the receiver can drop repeats) and, when a secret is configured, a signature a
/// receiver can check for forgery *and* replay (the scheme of Stripe's and Standard Webhooks'
/// receivers):
///
/// - `X-Beacond-Timestamp: <Unix seconds when the request was sent>`;
/// - `X-Beacond-Signature: sha256=<hex HMAC-SHA256, keyed with the secret, of "<timestamp>.<body>">`.
///
/// A receiver recomputes the HMAC over the timestamp header, a dot and the exact body bytes,
/// compares in constant time, refuses a timestamp older than its tolerance (5 minutes is usual)
/// and remembers the signatures (or idempotency keys) it accepted within that window. A retry is
/// signed anew with its own timestamp. An event whose alert has a callback destination for its
/// kind goes there instead of the default URL.
public struct WebhookSink: AlertSink {
    /// The default URL.
    public let url: String
    /// The HMAC key, if requests are signed.
    public let secret: String?
    /// The time allowed for one request.
    public let timeout: Duration
    private let client: HTTPClient
    /// The time a request is signed at (the wall clock; tests inject theirs).
    private let now: @Sendable () -> Timestamp

    /// Creates a sink posting to `url`.
    /// - Throws: ``SinkError/invalidURL(_:)`` unless `url` is http(s).
    public init(
        url: String, secret: String? = nil, timeout: Duration = .seconds(10),
        client: HTTPClient = .shared, now: @escaping @Sendable () -> Timestamp = { WallClock().now }
    ) throws(SinkError) {
        try Self.validate(url)
        self.url = url
        self.secret = secret
        self.timeout = timeout
        self.client = client
        self.now = now
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
            let timestamp = now().nanosecondsSinceEpoch / 1_000_000_000
            headers.append(("X-Beacond-Timestamp", String(timestamp)))
            headers.append(
                ("X-Beacond-Signature", "sha256=" + Self.signature(of: event.body, timestamp: timestamp, secret: secret)))
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

    /// The lowercase hex HMAC-SHA256, keyed with `secret`, of `"<timestamp>.<body>"` (UTF-8):
    /// what `X-Beacond-Signature` carries after `sha256=`.
    public static func signature(of body: String, timestamp: Int64, secret: String) -> String {
        hexHMAC(of: "\(timestamp).\(body)", secret: secret)
    }

    /// The lowercase hex HMAC-SHA256 of `message` keyed with `secret` (both as UTF-8).
    static func hexHMAC(of message: String, secret: String) -> String {
        HMACSHA256.hexAuthenticationCode(for: message.utf8, key: secret.utf8)
    }

    static func validate(_ url: String) throws(SinkError) {
        guard url.hasPrefix("http://") || url.hasPrefix("https://"), URL(string: url)?.host != nil else {
            throw .invalidURL(url)
        }
    }
}
