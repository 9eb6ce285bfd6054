import Synchronization

/// How the daemon's run is ending, shared by its services: a source that ended by itself (a
/// replay, a simulation) means "deliver the whole backlog, then stop"; a stop (a signal) means
/// "one last attempt, keep the rest for the next start".
final class GatewayLifecycle: Sendable {
    private struct State {
        var sourceEnded = false
        var stopping = false
        var onStop: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    /// The source ran to its end (and its last cycle was sent to the pipeline).
    var sourceEnded: Bool { state.withLock { $0.sourceEnded } }
    /// A stop was asked for.
    var stopping: Bool { state.withLock { $0.stopping } }

    func markSourceEnded() { state.withLock { $0.sourceEnded = true } }

    /// A stop was asked for (a signal): runs what waits for it.
    func markStopping() {
        let actions = state.withLock { state in
            state.stopping = true
            defer { state.onStop.removeAll() }
            return state.onStop
        }
        for action in actions { action() }
    }

    /// Runs `action` at the stop, or now if it has been asked for already.
    func whenStopping(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state in
            if !state.stopping { state.onStop.append(action) }
            return state.stopping
        }
        if now { action() }
    }
}
