/// An LE scanner's timing: every `interval` the controller moves to the next primary advertising
/// channel (37 → 38 → 39 → 37 …) and listens for the first `window` of it.
///
/// Kept in the spec's 0.625 ms units and within the range every controller accepts, so that
/// what the simulator models is what a radio can be told to do: the BlueZ scanner sends it in
/// LE Set (Extended) Scan Parameters, the simulator schedules its windows by it.
public struct ScanTiming: Hashable, Sendable {
    /// The spec's time unit for scan interval and window: 0.625 ms.
    public static let timeUnit = Duration.microseconds(625)
    /// Shortest interval or window: 2.5 ms (4 units).
    public static let minimumTime = Duration.microseconds(2_500)
    /// Longest interval or window the legacy command accepts: 10.24 s (0x4000 units); the
    /// extended command accepts up to 40.959375 s (0xFFFF units) but the scanner keeps to the
    /// range both accept.
    public static let maximumTime = Duration.milliseconds(10_240)

    /// Time between the starts of two scan windows, in 0.625 ms units.
    public let intervalUnits: UInt16
    /// How long the controller listens in each interval, in 0.625 ms units.
    public let windowUnits: UInt16

    /// Validates and converts a scan timing (times are rounded to 0.625 ms).
    ///
    /// - Throws: ``ScanTimingError`` when a time is outside 2.5 ms … 10.24 s or the window is
    ///   longer than the interval.
    public init(interval: Duration, window: Duration) throws(ScanTimingError) {
        for (name, value) in [("interval", interval), ("window", window)]
        where value < Self.minimumTime || value > Self.maximumTime {
            throw ScanTimingError(
                description: "scan \(name) \(Self.milliseconds(value)) is outside 2.5 ms … 10240 ms (the spec's range)")
        }
        guard window <= interval else {
            throw ScanTimingError(
                description: "scan window \(Self.milliseconds(window)) is longer than the interval "
                    + "\(Self.milliseconds(interval)); use a window ≤ interval (equal = listen continuously)")
        }
        intervalUnits = Self.units(interval)
        windowUnits = Self.units(window)
    }

    /// Listening all the time (window = interval = 100 ms), BlueZ's passive-scan default for beacons.
    public static let continuous = try! ScanTiming(interval: .milliseconds(100), window: .milliseconds(100))

    /// The interval as a duration.
    public var interval: Duration { Self.timeUnit * Int(intervalUnits) }
    /// The window as a duration.
    public var window: Duration { Self.timeUnit * Int(windowUnits) }
    /// The fraction of time the scanner listens (window / interval).
    public var dutyCycle: Double { Double(windowUnits) / Double(intervalUnits) }

    private static func units(_ value: Duration) -> UInt16 {
        let micro = value.nanoseconds / 1_000
        return UInt16((micro + 312) / 625)
    }

    private static func milliseconds(_ value: Duration) -> String {
        "\(Double(value.nanoseconds) / 1e6) ms"
    }
}
