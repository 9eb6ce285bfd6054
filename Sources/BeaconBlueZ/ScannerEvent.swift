import BeaconCore

/// What the scanner reports to its log: each step of starting, stopping and recovering.
public enum ScannerEvent: Hashable, Sendable, CustomStringConvertible {
    /// How much attention an event deserves.
    public enum Level: Int, Comparable, Sendable {
        case info, warning, error
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Scanning is on.
    case started(adapter: HCIAdapterInfo, version: LocalVersion, commands: ScanCommandSet, scan: ScanParameters)
    /// The adapter advertises `advertising` while it scans, with the advertising commands of
    /// `commands`.
    case advertising(adapter: String, BeaconAdvertising, commands: ScanCommandSet)
    /// The controller refused to advertise (`error` says which command and why); scanning goes
    /// on without it.
    case advertisingRefused(adapter: String, BlueZScannerError)
    /// Advertising stopped (on an orderly stop).
    case advertisingStopped(adapter: String)
    /// The preferred command set was refused; the other one is being tried.
    case fellBack(from: ScanCommandSet, to: ScanCommandSet, command: HCIOpcode, status: HCIStatus)
    /// The consumer is too slow: `total` packets dropped so far in this session (logged at 1, 10,
    /// 100, … drops).
    case packetsDropped(total: Int)
    /// A session ended: how many packets it read and dropped.
    case sessionEnded(adapter: String, received: Int, dropped: Int)
    /// Scanning stopped because of `error`; the scanner will try to reopen if it can.
    case sessionLost(BlueZScannerError)
    /// Waiting `delay` before reopen attempt `attempt`.
    case reopenScheduled(attempt: Int, delay: Duration)
    /// Reopen attempt `attempt` failed.
    case reopenFailed(attempt: Int, BlueZScannerError)
    /// Reopen attempt `attempt` succeeded.
    case reopened(attempt: Int)
    /// A step of the orderly stop failed (scanning may still be on, or the filter not restored).
    case teardownFailed(step: String, BlueZScannerError)
    /// Scanning disabled and the socket's previous filter restored.
    case stopped(adapter: String)

    /// How much attention the event deserves.
    public var level: Level {
        switch self {
        case .started, .reopened, .stopped, .sessionEnded, .advertising, .advertisingStopped: .info
        case .advertisingRefused, .fellBack, .packetsDropped, .reopenScheduled, .teardownFailed: .warning
        case .sessionLost, .reopenFailed: .error
        }
    }

    /// One log line.
    public var description: String {
        switch self {
        case .started(let adapter, let version, let commands, let scan):
            let type = scan.type == .active ? "active" : "passive"
            return "scanning on \(adapter) (\(version)) with \(commands): \(type), interval \(scan.interval), "
                + "window \(scan.window), duplicates not filtered"
        case .advertising(let adapter, let advertising, let commands):
            return "advertising \(advertising.identity) (measured power "
                + "\(advertising.measuredPower) dBm) every \(advertising.interval) from \(adapter) with "
                + "\(commands.advertisingDescription), non-connectable"
        case .advertisingRefused(let adapter, let error):
            return "\(adapter) refused to advertise this gateway's identity (\(error)); scanning goes on "
                + "without it, so the other gateways cannot measure this one. Another program may be "
                + "advertising on this adapter (`bluetoothctl advertise off`, or stop bluetoothd), or the "
                + "controller cannot advertise while it scans: give the gateway a controller that can, or set "
                + "site.advertise: false"
        case .advertisingStopped(let adapter):
            return "\(adapter): advertising stopped"
        case .fellBack(let from, let to, let command, let status):
            return "\(command) answered \(status); switching from \(from) to \(to)"
        case .packetsDropped(let total):
            return "consumer too slow: \(total) packet(s) dropped so far (buffer full)"
        case .sessionEnded(let adapter, let received, let dropped):
            return "\(adapter): \(received) packet(s) received, \(dropped) dropped"
        case .sessionLost(let error):
            return "scanning stopped: \(error)"
        case .reopenScheduled(let attempt, let delay):
            return "reopening the adapter in \(delay.approximate) (attempt \(attempt))"
        case .reopenFailed(let attempt, let error):
            return "reopen attempt \(attempt) failed: \(error)"
        case .reopened(let attempt):
            return "adapter reopened (attempt \(attempt))"
        case .teardownFailed(let step, let error):
            return "could not \(step): \(error)"
        case .stopped(let adapter):
            return "\(adapter): scanning disabled, previous socket filter restored"
        }
    }
}
