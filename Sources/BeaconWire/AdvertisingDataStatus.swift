/// Bits 5–6 of an extended report's event type: whether the report holds all of the data.
public enum AdvertisingDataStatus: UInt8, Hashable, Sendable, CaseIterable {
    /// The data is complete (always the case for legacy and directed reports).
    case complete = 0
    /// More data follows in a later report.
    case incomplete = 1
    /// The data was truncated and no more will follow.
    case truncated = 2
    /// The reserved value 3.
    case reserved = 3

    /// Extracts the status from an extended report's 16-bit event type.
    @inlinable
    public init(extendedEventType: UInt16) {
        self = AdvertisingDataStatus(rawValue: UInt8(truncatingIfNeeded: (extendedEventType >> 5) & 0x3))!
    }
}
