import BeaconCore
import BeaconTestSupport
import Foundation
import Testing

@testable import BeaconSinks

@Suite("WebhookSink against a real HTTP server on 127.0.0.1", .serialized)
struct WebhookSinkTests {
    static let secret = "s3cret-key"
    static let events = (1...4).map { index in
        OutboundEvent(key: "door|beacon|delivered|\(index)", body: #"{"event":"delivered","n":\#(index)}"#)
    }
    static let backoff = RetryBackoff(initial: .seconds(1), multiplier: 2, maximum: .seconds(60), jitter: 0)

    /// RFC 4231, test case 2 (HMAC-SHA256 with key "Jefe") for the HMAC itself; then the signed
    /// message "<timestamp>.<body>", the expected value computed with Python's `hmac`.
    @Test("the signature is the hex HMAC-SHA256 of the timestamp, a dot and the body")
    func signatureVector() {
        #expect(
            WebhookSink.hexHMAC(of: "what do ya want for nothing?", secret: "Jefe")
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(
            WebhookSink.signature(of: "what do ya want for nothing?", timestamp: 1_700_000_000, secret: "Jefe")
                == "1cdd0650c8be1cb0974b1788d458b1e781206cfef59b85faafc582d2e182c57e")
    }

    @Test("a delivery is a signed POST with the idempotency key; a callback destination overrides the URL")
    func signedPost() async throws {
        let server = try await WebhookTestServer(secret: Self.secret)
        defer { server.stop() }
        let sink = try WebhookSink(url: server.url, secret: Self.secret)
        try await sink.deliver(Self.events[0])
        let routed = OutboundEvent(
            key: "k2", body: #"{"event":"created"}"#, destination: "http://127.0.0.1:\(server.port)/callback/created")
        try await sink.deliver(routed)
        let requests = try server.requests()
        #expect(
            requests == [
                .init(path: "/alerts", key: Self.events[0].key, signatureValid: true, status: 200, body: Self.events[0].body),
                .init(path: "/callback/created", key: "k2", signatureValid: true, status: 200, body: routed.body),
            ])
    }

    @Test("a non-2xx answer is a failed delivery")
    func serverError() async throws {
        let server = try await WebhookTestServer(secret: Self.secret, failFirst: 1)
        defer { server.stop() }
        let sink = try WebhookSink(url: server.url, secret: Self.secret)
        await #expect(throws: SinkError.httpStatus(url: server.url, status: 503)) { try await sink.deliver(Self.events[0]) }
        try await sink.deliver(Self.events[0])
        #expect(try server.requests().map(\.status) == [503, 200])
    }

    @Test("an invalid URL is refused when the sink is configured")
    func invalidURL() {
        #expect(throws: SinkError.invalidURL("ftp://example")) { try WebhookSink(url: "ftp://example") }
    }

    @Test("server down, then back: through the outbox every event arrives, in order, each key accepted once")
    func serverDownThenBack() async throws {
        let server = try await WebhookTestServer(secret: Self.secret)
        let port = server.port
        await server.stopped()
        defer { server.stop() }
        let outbox = InMemoryOutbox(configuration: OutboxConfiguration(sinks: ["hook"]))
        let clock = ManualClock()
        let recorder = ReportRecorder()
        // A refused connection fails at once; the timeout only bounds a delivery the server is slow
        // to answer on a busy machine, which must still count as delivered.
        let sink = try WebhookSink(url: server.url, secret: Self.secret, timeout: hangCeiling)
        let dispatcher = OutboxDispatcher(
            sinkName: "hook", sink: sink, outbox: outbox, backoff: Self.backoff,
            batchSize: 2, clock: clock, random: { 0.5 }, report: recorder.report)
        outbox.enqueue(Self.events)
        let run = Task { await dispatcher.run() }
        var reports = recorder.reports.makeAsyncIterator()
        #expect(await reports.next()?.retry == .init(attempt: 1, delay: .seconds(1)))
        clock.advance(by: .seconds(1))
        #expect(await reports.next()?.retry == .init(attempt: 2, delay: .seconds(2)))
        // Back up, but answering 503 once more before it recovers.
        try await server.start(port: port, failFirst: 1)
        clock.advance(by: .seconds(2))
        #expect(await reports.next()?.retry == .init(attempt: 3, delay: .seconds(4)))
        clock.advance(by: .seconds(4))
        #expect(await reports.next() == .delivered(count: 2, backlog: 2))
        #expect(await reports.next() == .delivered(count: 2, backlog: 0))
        await dispatcher.finish()
        await run.value

        let accepted = try server.requests().filter { $0.status == 200 }
        #expect(accepted.map(\.key) == Self.events.map(\.key))
        #expect(accepted.allSatisfy { $0.signatureValid })
        #expect(try outbox.backlog(sink: "hook") == 0)
    }
}
