import Foundation

/// One request's outcome, given to its caller exactly once, by whichever comes first: the URL
/// task's completion, a cancel, or the request's deadline.
///
/// ``HTTPClient`` does not leave it to FoundationNetworking to end a cancelled or overdue request.
/// On Linux a cancel that meets the answer being handled could deadlock the cancelling thread
/// (swift-corelibs-foundation #5412), and under a loaded test run a cancelled request was seen
/// never to end at all (stuck for three minutes after 136 of 400 rounds; the cause is not known,
/// and it did not come back in 100,000 rounds beside six threads of other requests on a busy
/// machine). A cancel or the deadline ends the caller's wait here and stops the URL task; what the
/// task reports afterwards is dropped. The caller waits before the task exists, so nothing it
/// waits for runs FoundationNetworking's code: a stuck session cannot hold it.
final class PendingRequest<Value: Sendable>: @unchecked Sendable {
    private enum State {
        /// No caller waits yet, nothing has ended it.
        case idle
        /// Ended before its caller waited: ``wait(on:)`` hands this outcome over at once.
        case endedEarly(Result<Value, any Error>)
        /// The caller waits on the continuation; `stop` stops the URL task once it is launched.
        case waiting(CheckedContinuation<Value, any Error>, stop: (@Sendable () -> Void)?)
        /// The caller has its outcome.
        case ended
    }

    private let lock = NSLock()
    private var state = State.idle

    /// The caller waits on `continuation`, resumed at once when the request has ended already.
    func wait(on continuation: CheckedContinuation<Value, any Error>) {
        let early: Result<Value, any Error>? = lock.withLock {
            switch state {
            case .idle:
                state = .waiting(continuation, stop: nil)
                return nil
            case .endedEarly(let outcome):
                state = .ended
                return outcome
            case .waiting, .ended:
                preconditionFailure("a pending request has one caller")
            }
        }
        if let early { continuation.resume(with: early) }
    }

    /// The URL task exists and `stop` stops it. Returns whether to run it: `false` when the
    /// request has ended already, and then the task is the launcher's to stop.
    func launch(stop: @escaping @Sendable () -> Void) -> Bool {
        lock.withLock {
            guard case .waiting(let continuation, nil) = state else { return false }
            state = .waiting(continuation, stop: stop)
            return true
        }
    }

    /// The URL task's own outcome; dropped when a cancel or the deadline came first.
    func complete(_ outcome: Result<Value, any Error>) {
        take(endingWith: outcome).continuation?.resume(with: outcome)
    }

    /// Ends the request with `error` (a cancel, the deadline) unless it has ended, and stops its
    /// URL task, here: call it off Swift's cooperative pool, since a stop waits for the session.
    func end(throwing error: any Error) {
        let taken = take(endingWith: .failure(error))
        taken.continuation?.resume(throwing: error)
        taken.stop?()
    }

    /// Marks the request ended with `outcome` and returns what is to be told and stopped.
    private func take(
        endingWith outcome: Result<Value, any Error>
    ) -> (continuation: CheckedContinuation<Value, any Error>?, stop: (@Sendable () -> Void)?) {
        lock.withLock {
            switch state {
            case .idle:
                state = .endedEarly(outcome)
                return (nil, nil)
            case .waiting(let continuation, let stop):
                state = .ended
                return (continuation, stop)
            case .endedEarly, .ended:
                return (nil, nil)
            }
        }
    }
}
