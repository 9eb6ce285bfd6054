import Synchronization

/// A value several tests read, worked out once, on a thread of its own, by the first test that
/// asks; the others wait for it without holding a thread.
///
/// Not a `static let`: its first reader computes it on a cooperative thread and every other
/// reader blocks a cooperative thread in `swift_once` until it is done. With two such readers the
/// pool (one thread per core) is gone for the whole computation: a shared site simulation held it
/// for minutes on a loaded machine, and every other test of the process stalled with it.
public final class SharedComputation<Value: Sendable>: Sendable {
    private let compute: @Sendable () throws -> Value
    private let started = Mutex<Task<Value, any Error>?>(nil)

    /// - Parameter compute: the work, run at most once (on a thread of its own).
    public init(_ compute: @escaping @Sendable () throws -> Value) {
        self.compute = compute
    }

    /// The value (or the error its computation threw), computing it on first use.
    public var value: Value {
        get async throws {
            let task = started.withLock { task in
                if let task { return task }
                let compute = compute
                let new = Task { try await onOwnThread(compute) }
                task = new
                return new
            }
            return try await task.value
        }
    }
}
