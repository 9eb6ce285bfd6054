import BeaconTestSupport
import Foundation
import Synchronization
import Testing

@testable import BeaconHTTP

/// `PendingRequest`: one outcome per request, whichever of the URL task's completion, a cancel
/// or the deadline comes first; the URL task stopped, once, when a cancel or the deadline wins.
@Suite("PendingRequest: one outcome, from the first of completion, cancel and deadline")
struct PendingRequestTests {
    struct Failure: Error, Equatable { let name: String }

    /// Counts calls of a task's `stop`.
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

    /// A request whose caller waits, the way `HTTPClient` sends one: the caller's task, waiting.
    struct Waiting {
        let request: Task<Int, any Error>
        let stops = Calls()

        /// Starts the caller's task and returns once it waits on `pending`.
        init(on pending: PendingRequest<Int>) async {
            let (waits, waiting) = AsyncStream.makeStream(of: Void.self)
            request = Task {
                try await withCheckedThrowingContinuation { continuation in
                    pending.wait(on: continuation)
                    waiting.yield()
                }
            }
            for await _ in waits { break }
        }

        /// Launches the URL task as `HTTPClient` does; returns whether it is to run.
        func launch(_ pending: PendingRequest<Int>) -> Bool {
            let stops = stops
            return pending.launch { stops.record() }
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
    }

    @Test("the completion first: the caller gets the answer, the task is not stopped, a later cancel changes nothing")
    func completionFirst() async throws {
        let pending = PendingRequest<Int>()
        let waiting = await Waiting(on: pending)
        #expect(waiting.launch(pending))
        pending.complete(.success(7))
        pending.end(throwing: Failure(name: "cancel"))
        #expect(try await waiting.outcome()?.get() == 7)
        #expect(waiting.stops.value == 0)
    }

    @Test(
        "a cancel first: the caller gets the cancel though the task never answers, the task is stopped once, a later completion is dropped"
    )
    func cancelFirst() async throws {
        let pending = PendingRequest<Int>()
        let waiting = await Waiting(on: pending)
        #expect(waiting.launch(pending))
        pending.end(throwing: Failure(name: "cancel"))
        #expect(waiting.stops.value == 1)
        let outcome = await waiting.outcome()
        #expect(throws: Failure(name: "cancel")) { try outcome?.get() }
        #expect(outcome != nil, "the caller still waits")
        pending.complete(.success(7))
        pending.end(throwing: Failure(name: "deadline"))
        #expect(waiting.stops.value == 1)
    }

    @Test("the deadline before the task exists: the caller is freed at once, and the task, once made, is not run")
    func endedBeforeLaunch() async throws {
        let pending = PendingRequest<Int>()
        let waiting = await Waiting(on: pending)
        pending.end(throwing: Failure(name: "deadline"))
        let outcome = await waiting.outcome()
        #expect(throws: Failure(name: "deadline")) { try outcome?.get() }
        #expect(outcome != nil, "the caller still waits")
        #expect(!waiting.launch(pending), "launched although the request had ended")
        #expect(waiting.stops.value == 0, "the launcher stops a task it may not run, not the pending request")
    }

    @Test("a cancel before the caller waits: the caller has the outcome as it starts waiting, no task runs")
    func endedBeforeWait() async throws {
        let pending = PendingRequest<Int>()
        pending.end(throwing: Failure(name: "cancel"))
        let waiting = await Waiting(on: pending)
        let outcome = await waiting.outcome()
        #expect(throws: Failure(name: "cancel")) { try outcome?.get() }
        #expect(outcome != nil, "the caller still waits")
        #expect(!waiting.launch(pending))
    }

    @Test(
        "launch, completion, cancel and deadline racing on four threads: one outcome, and a task stopped once unless it answered first",
        arguments: 0..<200)
    func racing(round: Int) async throws {
        let pending = PendingRequest<Int>()
        let waiting = await Waiting(on: pending)
        let launched = Calls()
        let group = DispatchGroup()
        for contender in 0..<4 {
            DispatchQueue.global().async(group: group) {
                switch (contender + round) % 4 {
                case 0: if waiting.launch(pending) { launched.record() }
                case 1: pending.complete(.success(round))
                case 2: pending.end(throwing: Failure(name: "cancel"))
                default: pending.end(throwing: Failure(name: "deadline"))
                }
            }
        }
        // A second resume of the continuation would trap; the outcome is one of the three.
        let outcome = await waiting.outcome()
        await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
        // A task not launched is stopped by its launcher: once in all, or never when it answered.
        let stopped = waiting.stops.value + (launched.value == 0 ? 1 : 0)
        switch outcome {
        case nil:
            Issue.record("no outcome")
        case .success(let value):
            #expect(value == round)
            #expect(waiting.stops.value == 0, "the task answered first: the request stops nothing")
        case .failure(let error):
            let name = (error as? Failure)?.name
            #expect(name == "cancel" || name == "deadline")
            #expect(stopped == 1, "stopped \(stopped) times")
        }
    }
}
