import Synchronization

/// A value given once and awaited: one side calls ``resume(returning:)`` (only the first call
/// counts), any number of others await ``value``, before or after.
///
/// The bridge between a thread or callback that learns something once (a scan started, a
/// socket closed) and the tasks waiting for it. Awaiting is not cancellable: a waiter stays
/// until the value comes, so whoever resumes must do so on every path. For an answer that may
/// be an error, let `Value` be a `Result`.
public final class OneShot<Value: Sendable>: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Value, Never>])
        case resumed(Value)
    }

    private let state = Mutex(State.waiting([]))

    /// A one-shot not yet resumed.
    public init() {}

    /// Gives the value and wakes every waiter; later calls are ignored.
    /// - Returns: whether this call gave the value (false: it had been given before).
    @discardableResult
    public func resume(returning value: Value) -> Bool {
        let waiters: [CheckedContinuation<Value, Never>]? = state.withLock { state in
            guard case .waiting(let waiters) = state else { return nil }
            state = .resumed(value)
            return waiters
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: value) }
        return true
    }

    /// Whether the value has been given.
    public var isResumed: Bool {
        state.withLock { state in
            if case .resumed = state { return true }
            return false
        }
    }

    /// The value, once given (at once if it already has been).
    public var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let given: Value? = state.withLock { state in
                    switch state {
                    case .resumed(let value):
                        return value
                    case .waiting(var waiters):
                        waiters.append(continuation)
                        state = .waiting(waiters)
                        return nil
                    }
                }
                if let given { continuation.resume(returning: given) }
            }
        }
    }
}

extension OneShot where Value == Void {
    /// Signals the waiters; later calls are ignored.
    /// - Returns: whether this call gave the signal.
    @discardableResult
    public func resume() -> Bool { resume(returning: ()) }
}
