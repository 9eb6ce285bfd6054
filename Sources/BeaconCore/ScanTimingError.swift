/// Why a ``ScanTiming`` cannot be: a time outside the HCI range, or a window longer than the
/// interval.
public struct ScanTimingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong and what would do, in a sentence.
    public var description: String

    /// Creates an error.
    public init(description: String) {
        self.description = description
    }
}
