import Synchronization

/// The answer to one input that expects one (a posted fact, a new alert set): the runner
/// resumes it once, the sender awaits ``value``.
public final class PipelineReply<Value: Sendable>: Sendable {
    private enum State {
        case waiting(CheckedContinuation<Value, any Error>?)
        case answered(Result<Value, any Error>)
    }

    private let state = Mutex(State.waiting(nil))

    /// A reply not yet answered.
    public init() {}

    /// Answers; only the first answer counts.
    public func resume(with result: Result<Value, any Error>) {
        let waiter: CheckedContinuation<Value, any Error>? = state.withLock { state in
            guard case .waiting(let waiter) = state else { return nil }
            state = .answered(result)
            return waiter
        }
        waiter?.resume(with: result)
    }

    /// The answer, once there is one.
    public var value: Value {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let answer: Result<Value, any Error>? = state.withLock { state in
                    switch state {
                    case .answered(let result):
                        return result
                    case .waiting:
                        state = .waiting(continuation)
                        return nil
                    }
                }
                if let answer { continuation.resume(with: answer) }
            }
        }
    }
}
