import BeaconTestSupport
import Foundation
import Synchronization
import Testing

@testable import BeaconHTTP

/// `PendingRequest`: one outcome per request, whichever of the URL task's completion, a cancel
/// or the deadline comes first; the URL task stopped when a cancel or the deadline wins.
@Suite("PendingRequest: one outcome, from the first of completion, cancel and deadline")
struct PendingRequestTests {
    struct Failure: Error, Equatable { let name: String }

    /// Counts calls of `run` or `stop` (a stop comes on another thread).
    final class Calls: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func record() { count.withLock { $0 += 1 } }
    }

    /// Hands the first outcome given to the one who waits.
    final class FirstOutcome: Sendable {
        private let waiter = Mutex<CheckedContinuation<Result<Int, any Error>?, Never>?>(nil)
        func wait(_ continuation: CheckedContinuation<Result<Int, any Error>?, Never>) { waiter.withLock { $0 = continuation } }
        func give(_ outcome: Result<Int, any Error>?) { waiter.withLock { $0.take() }?.resume(returning: outcome) }
    }

    /// A request started the way `HTTPClient` starts one, on a task of its own.
    struct Started {
        let request: Task<Int, any Error>
        let runs = Calls()
        let stops = Calls()

        /// Starts `pending` and returns once it has started.
        init(_ pending: PendingRequest<Int>) async {
            let (starts, started) = AsyncStream.makeStream(of: Void.self)
            let runs = runs
            let stops = stops
            request = Task {
                try await withCheckedThrowingContinuation { continuation in
                    pending.start(continuation, run: { runs.record() }, stop: { stops.record() })
                    started.yield()
                }
            }
            for await _ in starts { break }
        }

        /// The request's outcome, or nil when it has none by ``hangCeiling`` (a request nothing ends).
        func outcome() async -> Result<Int, any Error>? {
            let first = FirstOutcome()
            let ceiling = Task {
                try? await Task.sleep(for: hangCeiling)
                first.give(nil)
            }
            defer { ceiling.cancel() }
            let request = request
            return await withCheckedContinuation { continuation in
                first.wait(continuation)
                Task { first.give(await request.result) }
            }
        }

        /// Whether the URL task was stopped (by ``hangCeiling``; the stop runs on another thread).
        func stopped() async -> Bool { await eventually { stops.value > 0 } }
    }

    @Test("the completion first: the caller gets the answer, the task is not stopped, a later cancel changes nothing")
    func completionFirst() async throws {
        let pending = PendingRequest<Int>()
        let started = await Started(pending)
        pending.complete(.success(7))
        pending.end(throwing: Failure(name: "cancel"))
        #expect(try await started.outcome()?.get() == 7)
        #expect(started.runs.value == 1)
        #expect(started.stops.value == 0)
    }

    @Test(
        "a cancel first: the caller gets the cancel though the task never answers, the task is stopped once, a later completion is dropped"
    )
    func cancelFirst() async throws {
        let pending = PendingRequest<Int>()
        let started = await Started(pending)
        pending.end(throwing: Failure(name: "cancel"))
        let outcome = await started.outcome()
        #expect(throws: Failure(name: "cancel")) { try outcome?.get() }
        #expect(outcome != nil, "the caller still waits")
        #expect(await started.stopped())
        pending.complete(.success(7))
        pending.end(throwing: Failure(name: "deadline"))
        #expect(started.stops.value == 1)
    }

    @Test("ended before it started: the caller has the outcome at the start, the task never runs and is stopped")
    func endedBeforeStart() async throws {
        let pending = PendingRequest<Int>()
        pending.end(throwing: Failure(name: "deadline"))
        let started = await Started(pending)
        let outcome = await started.outcome()
        #expect(throws: Failure(name: "deadline")) { try outcome?.get() }
        #expect(outcome != nil, "the caller still waits")
        #expect(await started.stopped())
        #expect(started.runs.value == 0)
        #expect(started.stops.value == 1)
    }

    @Test("completion, cancel and deadline racing on three threads: one outcome each time, never two", arguments: 0..<200)
    func racing(round: Int) async throws {
        let pending = PendingRequest<Int>()
        let started = await Started(pending)
        let group = DispatchGroup()
        for contender in 0..<3 {
            DispatchQueue.global().async(group: group) {
                switch (contender + round) % 3 {
                case 0: pending.complete(.success(round))
                case 1: pending.end(throwing: Failure(name: "cancel"))
                default: pending.end(throwing: Failure(name: "deadline"))
                }
            }
        }
        // A second resume of the continuation would trap; the outcome is one of the three.
        switch await started.outcome() {
        case nil:
            Issue.record("no outcome")
        case .success(let value):
            #expect(value == round)
            await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
            #expect(started.stops.value == 0, "the task answered first: nothing to stop")
        case .failure(let error):
            let name = (error as? Failure)?.name
            #expect(name == "cancel" || name == "deadline")
            #expect(await started.stopped())
        }
    }
}
