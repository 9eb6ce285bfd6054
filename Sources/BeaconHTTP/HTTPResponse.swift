/// One HTTP response, its body read whole.
public struct HTTPResponse: Sendable {
    /// The status code (200, 304, 503, …).
    public var status: Int
    /// Header fields by lowercased name (the last one of a repeated name).
    public var headers: [String: String]
    /// The body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the header `name` (case-insensitive), if present.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
