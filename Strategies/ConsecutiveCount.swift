/// A run length: how many consecutive cycles a per-cycle test has passed. Used by the proximity
/// and RSSI strategies.
public struct ConsecutiveCount: Hashable, Sendable, Codable {
    /// Consecutive passing cycles up to the latest update.
    public var cycles: Int

    /// A run of `cycles` (default none).
    public init(cycles: Int = 0) { self.cycles = cycles }

    /// Extends the run when `passed`, otherwise breaks it.
    public mutating func record(_ passed: Bool) {
        cycles = passed ? cycles &+ 1 : 0
    }
}
