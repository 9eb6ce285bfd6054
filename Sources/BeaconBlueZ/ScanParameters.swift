import BeaconCore

/// How the controller scans: passive or active, how often and how long it listens (its
/// `ScanTiming`, the same type the simulator schedules by), and which address it uses for scan
/// requests. Duplicate filtering is always off: every advertisement
/// counts for ranging.
public struct ScanParameters: Hashable, Sendable {
    /// Passive scanning only listens; active scanning also sends scan requests and receives
    /// scan responses.
    public enum ScanType: UInt8, Sendable {
        /// `0x00`: listen only.
        case passive = 0x00
        /// `0x01`: send SCAN_REQ to scannable advertisers.
        case active = 0x01
    }

    /// The address the controller uses in scan requests (Own_Address_Type).
    public enum OwnAddressType: UInt8, Sendable {
        /// `0x00`: the public device address.
        case `public` = 0x00
        /// `0x01`: the random device address.
        case random = 0x01
        /// `0x02`: a resolvable private address, else the public address.
        case resolvableOrPublic = 0x02
        /// `0x03`: a resolvable private address, else the random address.
        case resolvableOrRandom = 0x03
    }

    /// The spec's time unit for scan interval and window: 0.625 ms (`ScanTiming/timeUnit`).
    public static let timeUnit = ScanTiming.timeUnit
    /// Shortest interval or window: 2.5 ms (`ScanTiming/minimumTime`).
    public static let minimumTime = ScanTiming.minimumTime
    /// Longest interval or window: 10.24 s (`ScanTiming/maximumTime`).
    public static let maximumTime = ScanTiming.maximumTime

    /// Passive or active.
    public let type: ScanType
    /// The interval and window, checked and in the spec's units.
    public let timing: ScanTiming
    /// The address type used in scan requests.
    public let ownAddressType: OwnAddressType

    /// Validates and converts a scan configuration (times are rounded to 0.625 ms).
    ///
    /// - Throws: ``BlueZScannerError/invalidScanParameters(_:)`` when a time is outside
    ///   2.5 ms … 10.24 s or the window is longer than the interval.
    public init(
        type: ScanType = .passive, interval: Duration = .milliseconds(100),
        window: Duration = .milliseconds(100),
        ownAddressType: OwnAddressType = .public
    ) throws(BlueZScannerError) {
        do {
            timing = try ScanTiming(interval: interval, window: window)
        } catch {
            throw .invalidScanParameters(error.description)
        }
        self.type = type
        self.ownAddressType = ownAddressType
    }

    /// Passive, 100 ms interval and window (continuous listening), public address.
    public static let `default` = try! ScanParameters()

    /// Time between the starts of two scan windows, in 0.625 ms units.
    public var intervalUnits: UInt16 { timing.intervalUnits }
    /// How long the controller listens in each interval, in 0.625 ms units.
    public var windowUnits: UInt16 { timing.windowUnits }
    /// The interval as a duration.
    public var interval: Duration { timing.interval }
    /// The window as a duration.
    public var window: Duration { timing.window }
}
