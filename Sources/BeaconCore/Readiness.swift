import Synchronization

/// When a daemon is ready: the moment every part it named at start has said so (its broker
/// connected, its subscriptions acknowledged, its takeover role known, its services running).
///
/// What waits on it — systemd's `Type=notify`, a test that starts a scenario once every process
/// of a site is up — waits for an event, not for a time guessed in advance. The parts are fixed
/// when it is made; ``met(_:)`` may be called any number of times, from any thread (a library's
/// network thread says "connected" on every reconnection), and `onReady` runs once, on the
/// thread of the last part's first ``met(_:)``.
///
/// ```swift
/// let readiness = Readiness(parts: ["site broker", "services"]) { parts in
///     logger.notice("ready: \(parts.joined(separator: ", "))")
/// }
/// readiness.met("services")
/// readiness.met("site broker")   // onReady(["site broker", "services"])
/// ```
public final class Readiness: Sendable {
    private struct State {
        var waiting: [String]
        var ready = false
    }

    /// The parts, in the order given.
    public let parts: [String]
    private let state: Mutex<State>
    private let onReady: @Sendable (_ parts: [String]) -> Void

    /// A readiness that waits for each of `parts`.
    /// - Parameters:
    ///   - parts: what must be met, by name (duplicates count once; none: ready at the first
    ///     ``met(_:)`` of anything).
    ///   - onReady: called once, when the last part is met, with the parts in order.
    public init(parts: [String], onReady: @escaping @Sendable (_ parts: [String]) -> Void) {
        var unique: [String] = []
        for part in parts where !unique.contains(part) { unique.append(part) }
        self.parts = unique
        state = Mutex(State(waiting: unique))
        self.onReady = onReady
    }

    /// Says that `part` is ready; a part not named at start is ignored (unless none was named).
    /// - Returns: whether this call made the daemon ready.
    @discardableResult
    public func met(_ part: String) -> Bool {
        let becameReady = state.withLock { state in
            guard !state.ready else { return false }
            state.waiting.removeAll { $0 == part }
            guard state.waiting.isEmpty else { return false }
            state.ready = true
            return true
        }
        if becameReady { onReady(parts) }
        return becameReady
    }

    /// Whether every part has been met.
    public var isReady: Bool { state.withLock { $0.ready } }

    /// The parts not met yet, in order (for a status page or a message at a slow start).
    public var waitingFor: [String] { state.withLock { $0.waiting } }
}
