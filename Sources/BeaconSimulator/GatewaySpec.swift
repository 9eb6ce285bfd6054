import BeaconCore

/// A receiver of the simulated site: where it is and how its controller scans.
public struct GatewaySpec: Hashable, Sendable {
    /// The gateway's name (in the truth file and logs).
    public var name: String
    /// Antenna position, metres.
    public var position: Vector3
    /// Scan interval and window.
    public var scan: ScanParameters
    /// Which HCI event the controller reports advertisements with.
    public var reportFormat: ReportFormat
    /// The room the gateway stands for on a site (`nil` off a site).
    public var room: String?

    /// Creates a gateway.
    public init(
        name: String, position: Vector3, scan: ScanParameters = .continuous,
        reportFormat: ReportFormat = .legacy, room: String? = nil
    ) {
        self.name = name
        self.position = position
        self.scan = scan
        self.reportFormat = reportFormat
        self.room = room
    }
}

/// How the controller delivers advertisements to the host.
public enum ReportFormat: String, Hashable, Sendable, CaseIterable {
    /// HCI LE Advertising Report events (subevent 0x02), what `LE Set Scan Enable` gives.
    case legacy
    /// HCI LE Extended Advertising Report events (subevent 0x0D), what `LE Set Extended Scan Enable` gives.
    case extended
}

/// An LE scanner's timing: every `interval` it moves to the next primary advertising channel
/// (37 → 38 → 39 → 37 …) and listens for the first `window` of it.
public struct ScanParameters: Hashable, Sendable {
    /// Time between the starts of two scan windows.
    public var interval: Duration
    /// How long the scanner listens in each interval (≤ `interval`).
    public var window: Duration

    /// Creates scan parameters; `window` must not exceed `interval`.
    public init(interval: Duration, window: Duration) {
        precondition(window <= interval && interval > .zero, "scan window must be within the scan interval")
        self.interval = interval
        self.window = window
    }

    /// Listening all the time (window = interval = 100 ms), BlueZ's passive-scan default for beacons.
    public static let continuous = ScanParameters(interval: .milliseconds(100), window: .milliseconds(100))

    /// The fraction of time the scanner listens (window / interval).
    public var dutyCycle: Double { window.secondsValue / interval.secondsValue }
}
