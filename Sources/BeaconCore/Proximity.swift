/// How close a beacon is, in the coarse bands CoreLocation made familiar.
///
/// `immediate`, `near` and `far` are ordered by closeness (`immediate < near < far`);
/// `unknown` (no usable signal this cycle) sorts after all of them.
public enum Proximity: UInt8, Hashable, Sendable, Comparable, CaseIterable {
    case immediate = 0
    case near = 1
    case far = 2
    case unknown = 3

    /// The lower-case name used in configuration and output.
    public var name: String {
        switch self {
        case .immediate: "immediate"
        case .near: "near"
        case .far: "far"
        case .unknown: "unknown"
        }
    }

    /// Parses `immediate`, `near`, `far` or `unknown`.
    public init?(name: some StringProtocol) {
        guard let match = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = match
    }

    /// True when this band is known and at least as close as `other` (`near.isWithin(.far)` holds).
    @inlinable
    public func isWithin(_ other: Proximity) -> Bool {
        self != .unknown && rawValue <= other.rawValue
    }

    public static func < (a: Proximity, b: Proximity) -> Bool { a.rawValue < b.rawValue }
}
