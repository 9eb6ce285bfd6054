import BeaconControl
import BeaconGateway
import BeaconTestSupport
import Foundation
import Testing

/// The control endpoint against clients that send too much, too slowly or nothing (issue 26,
/// defect 7): a real ``ControlServer`` on 127.0.0.1 with small limits, and raw sockets whose
/// reads are bounded. Before the fix the server had no head limit of its own (NIO's 80 KiB
/// counted the URL and headers only), no timeout at all, and answered a body too large only
/// once the body had ended: each test below then read nothing until its bound.
@Suite("ControlServer limits: head size, head and body time, idle connections, body size")
struct ControlServerLimitsTests {
    /// Limits of a test: small, so that they are reached at once.
    static func limits(
        head: Int = 1024, body: Int = 64 * 1024, headTimeout: Duration = .seconds(30),
        bodyTimeout: Duration = .seconds(30), idle: Duration = .seconds(30)
    ) -> ControlServerLimits {
        ControlServerLimits(
            maxHeadBytes: head, maxBodyBytes: body, headTimeout: headTimeout, bodyTimeout: bodyTimeout, idleTimeout: idle)
    }

    /// Runs `body` against a server with `limits` (the status routes, streams every 50 ms).
    static func withServer(
        _ limits: ControlServerLimits, _ body: (ControlServer) async throws -> Void
    ) async throws {
        let routes = StatusEndpointTests.routes(
            token: nil, board: StatusEndpointTests.board(), streamInterval: .milliseconds(50))
        let server = try await ControlServer.bind(host: "127.0.0.1", port: 0, routes: routes, limits: limits)
        let serving = Task { try await server.run() }
        defer {
            server.close()
            serving.cancel()
        }
        try await body(server)
    }

    /// Sends `request` on a new connection and reads what comes back until the server closes
    /// (at most `limit`).
    static func exchange(_ request: String, port: Int, within limit: Duration = hangCeiling) async throws
        -> BoundedSocket.Reading
    {
        let client = try BoundedSocket(port: port)
        client.send(request)
        return await onOwnThread { client.read(within: limit) }
    }

    /// Heads that never end, each longer than the limit. Old code: NIO counted only the URL and
    /// header bytes against its 80 KiB, and spaces and blank lines not at all; no answer.
    enum EndlessHead: String, CaseIterable, Sendable {
        case url, spacesBeforeURL, blankLines

        var bytes: String {
            switch self {
            case .url: "GET /" + String(repeating: "a", count: 2000)
            case .spacesBeforeURL: "GET " + String(repeating: " ", count: 2000)
            case .blankLines: String(repeating: "\r\n", count: 1000)
            }
        }
    }

    @Test("a head longer than the limit, with no line end, is answered 431 and closed", arguments: EndlessHead.allCases)
    func headTooLong(_ head: EndlessHead) async throws {
        try await Self.withServer(Self.limits(head: 1024)) { server in
            let reading = try await Self.exchange(head.bytes, port: server.port)
            #expect(reading.text.hasPrefix("HTTP/1.1 431"), "\(reading.text)")
            #expect(reading.closed)
        }
    }

    /// Old code: no time limit; the connection stayed open with nothing sent.
    @Test("a head that never completes is answered 408 after the head timeout, however it trickles")
    func headTimeout() async throws {
        try await Self.withServer(Self.limits(headTimeout: .milliseconds(300))) { server in
            let reading = try await Self.exchange("GET /health HTTP/1.1\r\nHost: x\r\n", port: server.port)
            #expect(reading.text.hasPrefix("HTTP/1.1 408"), "\(reading.text)")
            #expect(reading.closed)
            #expect(reading.elapsed >= .milliseconds(280) && reading.elapsed < .seconds(60), "\(reading.elapsed)")

            // A byte every 50 ms does not extend it: the limit is on the whole head.
            let client = try BoundedSocket(port: server.port)
            client.send("GET /health HTTP/1.1\r\n")
            let trickled = await onOwnThread { () -> BoundedSocket.Reading in
                var text = ""
                let start = ContinuousClock.now
                while start.duration(to: .now) < .seconds(60) {
                    client.send("X")
                    let reading = client.read(within: .milliseconds(50))
                    text += reading.text
                    if reading.closed {
                        return BoundedSocket.Reading(text: text, closed: true, elapsed: start.duration(to: .now))
                    }
                }
                return BoundedSocket.Reading(text: text, closed: false, elapsed: start.duration(to: .now))
            }
            #expect(trickled.text.hasPrefix("HTTP/1.1 408"), "\(trickled.text)")
            #expect(trickled.closed && trickled.elapsed < .seconds(60), "\(trickled.elapsed)")
        }
    }

    /// Old code: a connection that sent nothing stayed open for good.
    @Test("a connection with no request in progress is closed quietly after the idle timeout; a stream is not")
    func idleTimeout() async throws {
        let short = Self.limits(headTimeout: .milliseconds(300), bodyTimeout: .milliseconds(300), idle: .milliseconds(300))
        try await Self.withServer(short) { server in
            let client = try BoundedSocket(port: server.port)
            let reading = await onOwnThread { client.read(within: .seconds(60)) }
            #expect(reading.closed)
            #expect(reading.text.isEmpty, "\(reading.text)")
            #expect(reading.elapsed >= .milliseconds(280) && reading.elapsed < .seconds(60), "\(reading.elapsed)")

            // A stream is a response in progress: once it has begun, it runs on past every
            // limit, three times over.
            let stream = try BoundedSocket(port: server.port)
            stream.send("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
            let begun = await onOwnThread { stream.read(until: "event: status", within: .seconds(60)) }
            #expect(begun.text.hasPrefix("HTTP/1.1 200") && !begun.closed, "\(begun.text)")
            let running = await onOwnThread { stream.read(within: .seconds(1)) }
            #expect(!running.closed, "\(running.text)")
        }
    }

    /// Bodies over the (default, 64 KiB) limit, none of them ended. Old code: it counted the
    /// body but answered 413 only at its end, which none of these sends: no answer.
    enum LargeBody: String, CaseIterable, Sendable {
        case announced, chunked, absurdChunkSize

        var request: String {
            let head = "POST /events/closing HTTP/1.1\r\nHost: x\r\n"
            let chunk = String(repeating: "a", count: 16 * 1024)
            switch self {
            case .announced:
                return head + "Content-Length: 1000000\r\n\r\n"
            case .chunked:
                let one = String(16 * 1024, radix: 16) + "\r\n" + chunk + "\r\n"
                return head + "Transfer-Encoding: chunked\r\n\r\n" + String(repeating: one, count: 5)
            case .absurdChunkSize:
                return head + "Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFF\r\n" + String(repeating: chunk, count: 5)
            }
        }
    }

    @Test("a body over the limit is answered 413 as soon as it is over, and closed", arguments: LargeBody.allCases)
    func bodyTooLarge(_ body: LargeBody) async throws {
        try await Self.withServer(ControlServerLimits()) { server in
            let reading = try await Self.exchange(body.request, port: server.port)
            #expect(reading.text.hasPrefix("HTTP/1.1 413"), "\(reading.text)")
            #expect(reading.text.contains("larger than 65536 bytes"), "\(reading.text)")
            #expect(reading.closed)
        }
    }

    /// Old code: an unparsable chunk size was answered 400 by NIO's error handler (as now); an
    /// absurd one with no data after it left the server waiting for good.
    @Test("a chunk size beyond 64 bits is answered 400; an absurd one with nothing after it, 408")
    func absurdChunkSizes() async throws {
        try await Self.withServer(Self.limits(bodyTimeout: .milliseconds(300))) { server in
            let head = "POST /events/closing HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            let overflow = try await Self.exchange(head + "1FFFFFFFFFFFFFFFF\r\n", port: server.port)
            #expect(overflow.text.hasPrefix("HTTP/1.1 400"), "\(overflow.text)")
            #expect(overflow.closed)
            let waiting = try await Self.exchange(head + "FFFFFFFFFFFFFFFF\r\nabc", port: server.port)
            #expect(waiting.text.hasPrefix("HTTP/1.1 408"), "\(waiting.text)")
            #expect(waiting.closed && waiting.elapsed < .seconds(60), "\(waiting.elapsed)")
        }
    }

    /// Old code: all 200 stayed open (the issue saw 500 still open after 60 s).
    @Test("200 slowloris connections are all answered 408 and closed after the head timeout; others are served")
    func slowloris() async throws {
        try await Self.withServer(Self.limits(headTimeout: .milliseconds(500))) { server in
            let clients = try (0..<200).map { _ in try BoundedSocket(port: server.port) }
            for client in clients { client.send("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ") }

            // Meanwhile, requests within the limits are answered.
            let status = try await Self.exchange("GET /api/status HTTP/1.1\r\nHost: x\r\n\r\n", port: server.port)
            #expect(status.text.hasPrefix("HTTP/1.1 200"), "\(status.text)")
            #expect(status.closed)
            let posted = try await Self.exchange(
                "POST /events/closing HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
                port: server.port)
            #expect(posted.text.hasPrefix("HTTP/1.1 202"), "\(posted.text)")

            let readings = await onOwnThread {
                // The server answers in half a second; only a hang reaches the ceiling.
                let deadline = ContinuousClock.now + hangCeiling
                return clients.map { $0.read(within: max(.milliseconds(1), ContinuousClock.now.duration(to: deadline))) }
            }
            let answered = readings.filter { $0.closed && $0.text.hasPrefix("HTTP/1.1 408") }.count
            #expect(answered == 200, "\(readings.filter { !$0.closed }.count) still open")
        }
    }
}
