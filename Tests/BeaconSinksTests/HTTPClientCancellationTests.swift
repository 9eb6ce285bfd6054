import BeaconHTTP
import BeaconTestSupport
import Foundation
import Synchronization
import Testing

/// A request cancelled while its answer (here: a refused connection) is being handled. With
/// FoundationNetworking's `URLSession.data(for:)` that deadlocked now and then
/// (swift-corelibs-foundation #5412): the cancelling thread held the task's status lock and waited
/// for the session's work queue, which was resuming that task and waited for the lock. A
/// `beacond run` stopped by SIGTERM while its remote alert check was in flight never exited. The
/// client now ends a cancelled or overdue request itself (`PendingRequest`, tested alone in
/// `PendingRequestTests`).
@Suite("HTTPClient: a request cancelled while its answer arrives")
struct HTTPClientCancellationTests {
    static let rounds = 400

    @Test("400 requests to a refused port, each cancelled as it fails: every one ends, and the client still answers after")
    func cancelledWhileFailing() async throws {
        let url = "http://127.0.0.1:\(try MosquittoBroker.freePort())/"
        let finished = Mutex(0)
        // Run on threads of their own, so a deadlock holds them and not the cooperative pool: this
        // test then fails at the ceiling. (A deadlock stops every URL session of the process — they
        // share one queue — so other HTTP tests running beside it would hang with it.)
        let ended = await onOwnThread { () -> Bool in
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                for round in 0..<Self.rounds {
                    let request = Task { _ = try? await HTTPClient.shared.send(HTTPRequest(url: url, timeout: .seconds(5))) }
                    // Spread the cancellations over the request's short life: before the
                    // connection, as it is refused, after.
                    usleep(UInt32(round % 40) * 25)
                    request.cancel()
                    let joined = DispatchSemaphore(value: 0)
                    Task.detached {
                        _ = await request.result
                        joined.signal()
                    }
                    joined.wait()
                    finished.withLock { $0 += 1 }
                }
                done.signal()
            }
            return done.wait(timeout: .now() + .seconds(Int(hangCeiling.components.seconds))) == .success
        }
        let count = finished.withLock { $0 }
        try #require(ended, "stuck after \(count) of \(Self.rounds) cancelled requests: a deadlock")
        // The cancels left nothing stuck in the shared session: a request to a server is answered.
        let server = try await WebhookTestServer(secret: "after")
        defer { server.stop() }
        let response = try await HTTPClient.shared.send(
            HTTPRequest(method: "POST", url: server.url, body: [1], timeout: hangCeiling))
        #expect(response.status == 200)
    }

    @Test("a request the server holds unanswered ends as soon as it is cancelled, not at its timeout")
    func cancelledWhileHeld() async throws {
        let server = try await WebhookTestServer(secret: "held", holdAfter: 0)
        defer { server.stop() }
        let request = Task {
            try await HTTPClient.shared.send(HTTPRequest(method: "POST", url: server.url, body: [1], timeout: hangCeiling))
        }
        await server.received(1)
        request.cancel()
        switch await request.result {
        case .success(let response): Issue.record("answered \(response.status) although held")
        case .failure(let error):
            guard case .failed(_, let reason) = error as? HTTPClientError else {
                Issue.record("ended by \(error), not by the cancel")
                return
            }
            #expect(reason.localizedCaseInsensitiveContains("cancel"), "\(reason)")
        }
    }

    @Test("a request the server holds unanswered ends at its timeout, not before, as timed out")
    func heldPastItsTimeout() async throws {
        let server = try await WebhookTestServer(secret: "held", holdAfter: 0)
        defer { server.stop() }
        let timeout = Duration.milliseconds(500)
        let started = ContinuousClock.now
        defer {
            // Before the request's own deadline, no timeout was kept: FoundationNetworking took
            // none from the request's initializer and waited its default 60 s.
            let took = ContinuousClock.now - started
            #expect(took >= timeout, "ended before its timeout")
            #expect(took < .seconds(30), "took \(took): the timeout was not kept")
        }
        do {
            let response = try await HTTPClient.shared.send(
                HTTPRequest(method: "POST", url: server.url, body: [1], timeout: timeout))
            Issue.record("answered \(response.status) although held")
        } catch {
            #expect(error == .timedOut(url: server.url, timeout: timeout))
        }
    }
}
