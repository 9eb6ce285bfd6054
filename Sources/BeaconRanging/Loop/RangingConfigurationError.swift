/// A ranging configuration that cannot work, with what to change.
public enum RangingConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The cycle length must be positive.
    case nonPositiveCycle(Duration)
    /// Grace and retention must be non-negative, and retention at least the grace.
    case retentionShorterThanGrace(grace: Duration, retention: Duration)
    /// At most ``RangingConfiguration/maxRegions`` regions are supported.
    case tooManyRegions(Int)
    /// Two regions share an identifier.
    case duplicateRegion(String)
    /// A filter parameter is out of range.
    case invalidFilter(String)
    /// A negative timeout or margin.
    case invalidValue(String)

    public var description: String {
        switch self {
        case .nonPositiveCycle(let d):
            "ranging cycle length \(d) is not positive: set cycleLength to e.g. 1 s"
        case .retentionShorterThanGrace(let g, let r):
            "retention \(r) is shorter than the missed-scan grace \(g) (or negative): set retention ≥ grace ≥ 0"
        case .tooManyRegions(let n):
            "\(n) regions configured; at most \(RangingConfiguration.maxRegions) are supported: merge regions"
        case .duplicateRegion(let id):
            "region id '\(id)' is used twice: give each region a unique id"
        case .invalidFilter(let why):
            "invalid RSSI filter parameter: \(why)"
        case .invalidValue(let why):
            "invalid ranging value: \(why)"
        }
    }
}
