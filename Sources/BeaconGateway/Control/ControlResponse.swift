import BeaconCore

/// The answer to a ``ControlRequest``.
public struct ControlResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// The `Content-Type` header.
    public var contentType: String
    /// The body.
    public var body: String

    /// Creates a response.
    public init(status: Int, contentType: String = "application/json", body: String) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    /// An error as `{"error": "…"}` with `status`.
    public static func error(_ status: Int, _ message: String) -> ControlResponse {
        var json = JSONWriter()
        json.object { $0.member("error", message) }
        return ControlResponse(status: status, body: json.string + "\n")
    }
}
