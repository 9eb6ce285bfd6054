import Synchronization

/// A clock that moves only when told to: tests (and the simulator's virtual time) drive it with
/// ``advance(by:)`` or ``advance(to:)``, and every sleeper whose deadline has been reached is
/// resumed, in deadline order. Nothing ever waits on the wall clock.
public final class ManualClock: Clock, Sendable {
    public typealias Instant = Timestamp
    public typealias Duration = Swift.Duration

    private struct Sleeper {
        let id: UInt64
        let deadline: Timestamp
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Timestamp
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
    }

    private let state: Mutex<State>

    /// Creates a clock that reads `start` until it is advanced.
    public init(start: Timestamp = .epoch) {
        state = Mutex(State(now: start))
    }

    public var now: Timestamp { state.withLock { $0.now } }

    public var minimumResolution: Swift.Duration { .nanoseconds(1) }

    /// How many tasks are sleeping on this clock (lets a test wait until a task has gone to sleep).
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Moves the clock forward by `duration` and wakes every sleeper whose deadline has passed.
    public func advance(by duration: Swift.Duration) {
        advance(to: now + duration)
    }

    /// Moves the clock to `instant` (never backwards) and wakes every sleeper whose deadline has passed.
    public func advance(to instant: Timestamp) {
        let due: [Sleeper] = state.withLock { state in
            if instant > state.now { state.now = instant }
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    public func sleep(until deadline: Timestamp, tolerance: Swift.Duration? = nil) async throws {
        let id: UInt64 = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = state.withLock { state in
                    if deadline <= state.now { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let cancelled: Sleeper? = state.withLock { state in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }
}
