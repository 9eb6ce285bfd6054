import BeaconCore
import BeaconSinks
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The documented receiver (`Examples/webhook-receiver/receiver.py`), run for real against the
/// sink: signed requests pass; forged, stale and replayed ones are refused.
@Suite("The example webhook receiver refuses forged, stale and replayed requests", .serialized)
struct WebhookReceiverExampleTests {
    static let secret = "receiver-secret"
    static let event = OutboundEvent(key: "lobby|visitor|delivered|1", body: #"{"event":"delivered","alert":"lobby"}"#)

    /// The receiver on a free port, with a 300 s tolerance; stopped when `body` returns.
    static func withReceiver(_ body: (String) async throws -> Void) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestPaths.repositoryRoot + "/Examples/webhook-receiver/receiver.py", "0", "300"]
        process.environment = ProcessInfo.processInfo.environment.merging(["BEACOND_WEBHOOK_SECRET": secret]) { $1 }
        let output = Pipe(), lifeline = Pipe()
        process.standardOutput = output
        process.standardInput = lifeline
        try process.run()
        defer {
            try? lifeline.fileHandleForWriting.close() // the receiver exits when its input closes
            reapWhenExited(process)
        }
        let firstLine = await LineReader(output.fileHandleForReading).line() ?? ""
        let port = try #require(Int(firstLine.trimmingCharacters(in: .whitespacesAndNewlines)))
        try await body("http://127.0.0.1:\(port)/beacond")
    }

    @Test("a signed request is accepted; the same request again is a replay (409)")
    func acceptedThenReplayed() async throws {
        try await Self.withReceiver { url in
            let sent = WallClock().now
            let sink = try WebhookSink(url: url, secret: Self.secret, now: { sent })
            try await sink.deliver(Self.event)
            await #expect(throws: SinkError.httpStatus(url: url, status: 409)) { try await sink.deliver(Self.event) }
        }
    }

    @Test("a retry is signed anew with its own timestamp and is not taken for a replay")
    func retryIsNotReplay() async throws {
        try await Self.withReceiver { url in
            let first = WallClock().now
            try await WebhookSink(url: url, secret: Self.secret, now: { first }).deliver(Self.event)
            // A retry comes at least a second later (the outbox's backoff starts at 1 s).
            try await WebhookSink(url: url, secret: Self.secret, now: { first + .seconds(1) }).deliver(Self.event)
        }
    }

    @Test("a request signed 10 minutes ago is refused as stale (401)")
    func stale() async throws {
        try await Self.withReceiver { url in
            let sink = try WebhookSink(url: url, secret: Self.secret, now: { WallClock().now - .seconds(600) })
            await #expect(throws: SinkError.httpStatus(url: url, status: 401)) { try await sink.deliver(Self.event) }
        }
    }

    @Test("a request signed with another secret is refused (401)")
    func forged() async throws {
        try await Self.withReceiver { url in
            let sink = try WebhookSink(url: url, secret: "not-the-secret")
            await #expect(throws: SinkError.httpStatus(url: url, status: 401)) { try await sink.deliver(Self.event) }
        }
    }
}
