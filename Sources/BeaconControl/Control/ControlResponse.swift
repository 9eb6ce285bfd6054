import BeaconCore

/// The answer to a ``ControlRequest``: a whole body, or a stream (Server-Sent Events).
public struct ControlResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The `Content-Type` header.
    public var contentType: String
    /// The body (of a response that is not streamed).
    public var body: String
    /// A binary body (an image), sent instead of ``body`` when set.
    public var bytes: [UInt8]?
    /// More headers (`Cache-Control`, …).
    public var headers: [(name: String, value: String)] = []
    /// A streamed body: the server writes the head, then runs this until it returns or the
    /// client goes away (the task running it is then cancelled, and a write throws). `nil` for a
    /// whole body.
    public var stream: (@Sendable (ControlStreamWriter) async throws -> Void)?

    /// Creates a response.
    public init(status: Int, contentType: String = "application/json", body: String) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    /// A streamed response of `contentType`, whose body `stream` writes.
    public init(
        status: Int = 200, contentType: String, stream: @escaping @Sendable (ControlStreamWriter) async throws -> Void
    ) {
        self.status = status
        self.contentType = contentType
        self.body = ""
        self.stream = stream
    }

    /// An error as `{"error": "…"}` with `status`.
    public static func error(_ status: Int, _ message: String) -> ControlResponse {
        var json = JSONWriter()
        json.object { $0.member("error", message) }
        return ControlResponse(status: status, body: json.string + "\n")
    }
}

/// Writes a streamed response's body, chunk by chunk. Each write waits until the connection can
/// take it (the socket's buffers and the channel's high-water mark bound what is held for a
/// client that does not read): a slow client slows its own stream, nothing else.
public struct ControlStreamWriter: Sendable {
    let write: @Sendable (String) async throws -> Void

    /// Creates a writer from what sends a chunk (the server's connection, or a test's).
    public init(write: @escaping @Sendable (String) async throws -> Void) {
        self.write = write
    }

    /// Sends `text` as the next chunk; throws when the client has gone.
    public func callAsFunction(_ text: String) async throws {
        try await write(text)
    }
}
