/// One HTTP request to the control endpoint, as the routes see it.
public struct ControlRequest: Sendable, Hashable {
    /// `GET`, `POST`, …
    public var method: String
    /// The path without the query (`/events/closing`).
    public var path: String
    /// The query's `name=value` pairs, percent-decoded (the last of a repeated name wins).
    public var query: [String: String]
    /// The body's bytes.
    public var body: [UInt8]
    /// The `Authorization` header, if any.
    public var authorization: String?

    /// Creates a request.
    public init(
        method: String, path: String, query: [String: String] = [:], body: [UInt8] = [], authorization: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.authorization = authorization
    }

    /// Splits a request target (`/events/closing?beacon=…`) into path and decoded query.
    public init(method: String, target: String, body: [UInt8] = [], authorization: String? = nil) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var query: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = Self.percentDecoded(nameValue[0])
                query[name] = nameValue.count == 2 ? Self.percentDecoded(nameValue[1]) : ""
            }
        }
        self.init(
            method: method, path: Self.percentDecoded(parts.first ?? ""), query: query, body: body,
            authorization: authorization)
    }

    /// `%41` → `A`, `+` → space; a malformed escape is kept as written.
    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), input.count >= 2,
                let value = UInt8(String(decoding: input.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                input.removeFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
