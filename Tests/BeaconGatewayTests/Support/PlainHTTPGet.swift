import BeaconTestSupport
import Foundation

/// A GET to a daemon's control endpoint over a socket of its own, on a thread of its own: what
/// the tests ask a running daemon (`/api/status`, `/metrics`, `/health`).
///
/// Not FoundationNetworking's `URLSession`: its one shared session in the test process carries
/// every suite's requests through one libcurl multi handle, and on a machine loaded to four
/// times its cores one request there went 60 s without an answer while the daemon it asked was
/// idle (`make test-loaded`, 2026-11-29). A socket per request, read to the server's close
/// (the control server answers `Connection: close`), leaves nothing to share: when this times
/// out, it is the daemon that did not answer.
struct PlainHTTPGet {
    /// What the server answered.
    struct Response: Sendable {
        var status: Int
        /// Header names lowercased.
        var headers: [String: String]
        var body: String
    }

    /// Why no answer was read.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// GETs `url` (`http://127.0.0.1:port/path?query`) with `headers`, waiting at most `limit`
    /// for the whole answer.
    static func get(_ url: String, headers: [(String, String)] = [], within limit: Duration = .seconds(60)) async throws
        -> Response
    {
        try await send("GET", url, headers: headers, within: limit)
    }

    /// POSTs an empty body to `url` (`POST /reload`), as ``get(_:headers:within:)`` GETs.
    static func post(_ url: String, headers: [(String, String)] = [], within limit: Duration = .seconds(60)) async throws
        -> Response
    {
        try await send("POST", url, headers: headers + [("Content-Length", "0")], within: limit)
    }

    private static func send(
        _ method: String, _ url: String, headers: [(String, String)], within limit: Duration
    ) async throws -> Response {
        guard let components = URLComponents(string: url), components.scheme == "http", let host = components.host,
            let port = components.port
        else { throw Failure(description: "\(url): not an http://host:port URL") }
        let target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let query = components.percentEncodedQuery.map { "?\($0)" } ?? ""
        var head = "\(method) \(target)\(query) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let request = head + "\r\n"
        let reading = try await onOwnThread { () throws -> BoundedSocket.Reading in
            let socket = try BoundedSocket(port: port)
            guard socket.send(request) else {
                throw Failure(description: "\(url): the server closed before the request was sent")
            }
            return socket.read(within: limit)
        }
        guard reading.closed else {
            throw Failure(description: "\(url): no whole answer within \(limit) (\(reading.text.utf8.count) bytes read)")
        }
        return try parse(reading.text, from: url)
    }

    private static func parse(_ text: String, from url: String) throws -> Response {
        guard let split = text.range(of: "\r\n\r\n") else {
            throw Failure(description: "\(url): the server closed without a whole head: \(text.prefix(200))")
        }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let statusWords = lines[0].split(separator: " ")
        guard statusWords.count >= 2, let status = Int(statusWords[1]) else {
            throw Failure(description: "\(url): not a status line: \(lines[0])")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = String(text[split.upperBound...])
        if let length = headers["content-length"].flatMap(Int.init) {
            guard body.utf8.count >= length else {
                throw Failure(description: "\(url): the body ended after \(body.utf8.count) of \(length) bytes")
            }
            body = String(decoding: body.utf8.prefix(length), as: UTF8.self)
        }
        return Response(status: status, headers: headers, body: body)
    }
}
