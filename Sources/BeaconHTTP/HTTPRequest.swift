/// One HTTP request: what `HTTPClient/send(_:)` sends.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, …
    public var method: String
    /// An absolute `http://` or `https://` URL.
    public var url: String
    /// Header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body (empty: none).
    public var body: [UInt8]
    /// The time allowed for the whole exchange.
    public var timeout: Duration

    /// Creates a request.
    public init(
        method: String = "GET", url: String, headers: [(name: String, value: String)] = [],
        body: [UInt8] = [], timeout: Duration = .seconds(30)
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}
