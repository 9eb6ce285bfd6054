import BeaconCore

/// How the controller scans: passive or active, how often and how long it listens, and which
/// address it uses for scan requests. Duplicate filtering is always off: every advertisement
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

    /// The spec's time unit for scan interval and window: 0.625 ms.
    public static let timeUnit = Duration.microseconds(625)
    /// Shortest interval or window: 2.5 ms (4 units).
    public static let minimumTime = Duration.microseconds(2_500)
    /// Longest interval or window the legacy command accepts: 10.24 s (0x4000 units); the
    /// extended command accepts up to 40.959375 s (0xFFFF units) but the scanner keeps to the
    /// range both accept.
    public static let maximumTime = Duration.milliseconds(10_240)

    /// Passive or active.
    public let type: ScanType
    /// Time between the starts of two scan windows, in 0.625 ms units.
    public let intervalUnits: UInt16
    /// How long the controller listens in each interval, in 0.625 ms units.
    public let windowUnits: UInt16
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
        for (name, value) in [("interval", interval), ("window", window)]
        where value < Self.minimumTime || value > Self.maximumTime {
            throw .invalidScanParameters(
                "scan \(name) \(Self.milliseconds(value)) is outside 2.5 ms … 10240 ms (the spec's range)")
        }
        guard window <= interval else {
            throw .invalidScanParameters(
                "scan window \(Self.milliseconds(window)) is longer than the interval "
                    + "\(Self.milliseconds(interval)); use a window ≤ interval (equal = listen continuously)")
        }
        self.type = type
        self.intervalUnits = Self.units(interval)
        self.windowUnits = Self.units(window)
        self.ownAddressType = ownAddressType
    }

    /// Passive, 100 ms interval and window (continuous listening), public address.
    public static let `default` = try! ScanParameters()

    /// The interval as a duration.
    public var interval: Duration { Self.timeUnit * Int(intervalUnits) }
    /// The window as a duration.
    public var window: Duration { Self.timeUnit * Int(windowUnits) }

    private static func units(_ value: Duration) -> UInt16 {
        let micro = value.nanoseconds / 1_000
        return UInt16((micro + 312) / 625)
    }

    private static func milliseconds(_ value: Duration) -> String {
        "\(Double(value.nanoseconds) / 1e6) ms"
    }
}
