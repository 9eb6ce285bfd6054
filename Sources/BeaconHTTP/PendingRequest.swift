import Foundation

/// One request's outcome, given to its caller exactly once, by whichever comes first: the URL
/// task's completion, a cancel, or the request's deadline.
///
/// ``HTTPClient`` does not leave it to FoundationNetworking to end a cancelled or overdue request.
/// On Linux a cancel that meets the answer being handled could deadlock the cancelling thread
/// (swift-corelibs-foundation #5412), and under a loaded test run a cancelled request was seen
/// never to end at all (stuck for three minutes after 136 of 400 rounds; not reproduced since in
/// 100,000 rounds beside six threads of other requests on a busy machine). A cancel or the deadline ends the caller's wait here,
/// then asks the URL task to stop on another thread; what the task reports afterwards is dropped.
final class PendingRequest<Value: Sendable>: @unchecked Sendable {
    private enum State {
        /// Not started yet; nothing has ended it.
        case waiting
        /// Started: its caller waits on the continuation.
        case running(CheckedContinuation<Value, any Error>)
        /// Ended before it started: ``start(_:run:stop:)`` hands this outcome to the caller at once.
        case endedBeforeStart(Result<Value, any Error>)
        /// The caller has its outcome.
        case ended
    }

    private let lock = NSLock()
    private var state = State.waiting
    private var stopTask: (@Sendable () -> Void)?

    /// Starts the request: `run` starts it (the URL task's `resume()`), `stop` stops it (its
    /// `cancel()`, called at most once, on another thread). When the request ended before it
    /// started, `continuation` gets that outcome at once and the task is stopped instead.
    func start(
        _ continuation: CheckedContinuation<Value, any Error>, run: () -> Void, stop: @escaping @Sendable () -> Void
    ) {
        let early: Result<Value, any Error>? = lock.withLock {
            switch state {
            case .waiting:
                state = .running(continuation)
                stopTask = stop
                return nil
            case .endedBeforeStart(let outcome):
                state = .ended
                return outcome
            case .running, .ended:
                preconditionFailure("a pending request is started once")
            }
        }
        if let early {
            continuation.resume(with: early)
            DispatchQueue.global().async { stop() }
        } else {
            run()
        }
    }

    /// The URL task's own outcome; dropped when a cancel or the deadline came first.
    func complete(_ outcome: Result<Value, any Error>) {
        if let continuation = take(endingWith: outcome).continuation { continuation.resume(with: outcome) }
    }

    /// Ends the request with `error` (a cancel, the deadline) unless it has ended, and stops its
    /// URL task on another thread.
    func end(throwing error: any Error) {
        let taken = take(endingWith: .failure(error))
        taken.continuation?.resume(throwing: error)
        if let stop = taken.stop { DispatchQueue.global().async { stop() } }
    }

    /// Marks the request ended with `outcome` and returns what is to be told and stopped: the
    /// continuation when it was running, nothing when it had ended.
    private func take(
        endingWith outcome: Result<Value, any Error>
    ) -> (continuation: CheckedContinuation<Value, any Error>?, stop: (@Sendable () -> Void)?) {
        lock.withLock {
            switch state {
            case .waiting:
                state = .endedBeforeStart(outcome)
                return (nil, nil)
            case .running(let continuation):
                state = .ended
                defer { stopTask = nil }
                return (continuation, stopTask)
            case .endedBeforeStart, .ended:
                return (nil, nil)
            }
        }
    }
}
