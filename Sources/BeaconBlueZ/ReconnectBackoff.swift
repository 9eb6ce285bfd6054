/// How long the scanner waits before each attempt to reopen a lost adapter: exponential,
/// starting at ``initial`` and doubling up to ``maximum``. Never zero, so a dead adapter is
/// never polled in a tight loop.
public struct ReconnectBackoff: Hashable, Sendable {
    /// The wait before the first reopen attempt (at least 1 ms).
    public let initial: Duration
    /// The longest wait.
    public let maximum: Duration

    /// Creates a backoff; `initial` is raised to 1 ms and `maximum` to `initial` if smaller.
    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(30)) {
        let floor = Duration.milliseconds(1)
        self.initial = max(initial, floor)
        self.maximum = max(maximum, self.initial)
    }

    /// The wait before reopen attempt `attempt` (1, 2, 3, …): `initial × 2^(attempt−1)`,
    /// capped at ``maximum``.
    public func delay(beforeAttempt attempt: Int) -> Duration {
        var delay = initial
        var step = 1
        while step < attempt, delay < maximum {
            delay = delay * 2
            step += 1
        }
        return min(delay, maximum)
    }
}
