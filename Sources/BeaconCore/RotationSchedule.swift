/// When a file kept for a limited time (`retention:`) starts a new part: every half of the
/// limit, the file moves to `FILE.1` (replacing the part there) and a new one starts. So what it
/// holds is kept at least half the limit and never longer than the limit. Times are the data's
/// own (a packet's, a cycle's), so a replay or a simulation rotates on its time.
public struct RotationSchedule: Sendable, Hashable {
    /// How long a part collects before the next starts: half the limit.
    public let period: Duration
    /// When the current part began (its first time); `nil` before the first.
    public private(set) var partStart: Timestamp?

    /// A schedule keeping data for at most `limit`; `partStart` is the time of the first data
    /// of a part already there (a file appended to after a restart).
    public init(keeping limit: Duration, partStart: Timestamp? = nil) {
        period = limit / 2
        self.partStart = partStart
    }

    /// The path of the older part of `path`.
    public static func olderPart(of path: String) -> String { path + ".1" }

    /// Whether a new part starts with data at `time` (then it counts from `time`). The first
    /// time begins the first part.
    public mutating func startsNewPart(at time: Timestamp) -> Bool {
        guard let start = partStart else {
            partStart = time
            return false
        }
        guard time >= start + period else { return false }
        partStart = time
        return true
    }
}
