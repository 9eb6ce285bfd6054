import BeaconCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the BlueZ scanner cannot scan, each with what to do about it.
public enum BlueZScannerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kernel has no Bluetooth (`socket(AF_BLUETOOTH)` fails with `EAFNOSUPPORT`).
    case bluetoothUnavailable(HCISystemError)
    /// The kernel has Bluetooth but no adapter.
    case noAdapters
    /// The requested adapter does not exist; `available` lists those that do.
    case noSuchAdapter(requested: String, available: [HCIAdapterInfo])
    /// The adapter name is neither `hciN` nor a number.
    case invalidAdapterName(String)
    /// The process may not send raw HCI commands (`EPERM`/`EACCES`): it lacks `CAP_NET_RAW`.
    case permissionDenied(adapter: String, HCISystemError)
    /// The adapter is down (`ENETDOWN`, or not `HCI_UP`).
    case adapterDown(adapter: String)
    /// The adapter is blocked by rfkill (`ERFKILL`).
    case adapterBlocked(adapter: String)
    /// Another program holds the controller: `EBUSY`, or the controller answered Command
    /// Disallowed to both the legacy and the extended scan commands.
    case adapterBusy(adapter: String, detail: String)
    /// The adapter went away (unplugged, reset: `ENODEV`, `EPIPE`, `ENXIO`).
    case adapterLost(adapter: String, HCISystemError)
    /// The controller rejected a command with an HCI error.
    case commandFailed(adapter: String, command: HCIOpcode, status: HCIStatus)
    /// The controller did not answer a command in time.
    case commandTimedOut(adapter: String, command: HCIOpcode, timeout: Duration)
    /// The controller answered with a malformed event.
    case malformedResponse(adapter: String, HCIEventError)
    /// No advertising report arrived for the watchdog period.
    case watchdogExpired(adapter: String, period: Duration)
    /// Scan interval/window outside the spec's range, or window > interval.
    case invalidScanParameters(String)
    /// An advertisement outside what the controller accepts (interval, measured power, kind).
    case invalidAdvertising(String)
    /// Any other failed system call.
    case system(adapter: String, HCISystemError)

    /// Maps a failed system call on `adapter` to the error that tells the user what to do.
    public init(_ error: HCISystemError, adapter: String) {
        switch error.errno {
        case EAFNOSUPPORT: self = .bluetoothUnavailable(error)
        case EPROTONOSUPPORT where error.call == .socket: self = .bluetoothUnavailable(error)
        case EPERM, EACCES: self = .permissionDenied(adapter: adapter, error)
        case ENETDOWN: self = .adapterDown(adapter: adapter)
        case Self.errnoRFKill: self = .adapterBlocked(adapter: adapter)
        case EBUSY: self = .adapterBusy(adapter: adapter, detail: "\(error)")
        case ENODEV, EPIPE, ENXIO, EBADFD: self = .adapterLost(adapter: adapter, error)
        default: self = .system(adapter: adapter, error)
        }
    }

    /// Linux `ERFKILL` (132: "Operation not possible due to RF-kill").
    static let errnoRFKill: Int32 = 132

    /// Whether reopening the adapter later may help (the scanner retries these with backoff
    /// once it has been running); the others need the user to act.
    public var isRecoverable: Bool {
        switch self {
        case .bluetoothUnavailable, .permissionDenied, .invalidScanParameters, .invalidAdvertising, .invalidAdapterName: false
        default: true
        }
    }

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .bluetoothUnavailable(let error):
            return """
                This kernel has no Bluetooth support (\(error)). Scanning needs a Linux kernel with \
                Bluetooth (CONFIG_BT; try `sudo modprobe bluetooth`) and a Bluetooth adapter. To work \
                without a radio, use `beacond parse FILE` (a capture's packets), `beacond replay FILE \
                --config alerts.yaml` (a capture through ranging and alerts) or `beacond simulate \
                SCENARIO` (simulated beacons).
                """
        case .noAdapters:
            return """
                No Bluetooth adapter found. Plug in a USB dongle (or enable the built-in one) and check \
                that `hciconfig -a` or `btmgmt info` lists it.
                """
        case .noSuchAdapter(let requested, let available):
            let list = available.isEmpty ? "none" : available.map(\.description).joined(separator: ", ")
            return "No Bluetooth adapter \(requested). Adapters present: \(list). Pass one with `--adapter hciN`."
        case .invalidAdapterName(let name):
            return "'\(name)' is not an adapter name: use `hci0`, `hci1`, … or the index (`0`)."
        case .permissionDenied(let adapter, let error):
            return """
                Not allowed to scan on \(adapter) (\(error)): raw HCI access needs CAP_NET_RAW. Grant it \
                once with `sudo setcap cap_net_raw+ep $(command -v beacond)` (or run as root; under systemd \
                use AmbientCapabilities=CAP_NET_RAW). CAP_NET_ADMIN is only needed to bring an adapter up.
                """
        case .adapterDown(let adapter):
            return """
                Bluetooth adapter \(adapter) is down. Bring it up with `sudo hciconfig \(adapter) up` or \
                `sudo btmgmt --index \(Self.index(adapter)) power on` (or `bluetoothctl power on`).
                """
        case .adapterBlocked(let adapter):
            return "Bluetooth adapter \(adapter) is blocked by rfkill: `sudo rfkill unblock bluetooth`, then bring it up."
        case .adapterBusy(let adapter, let detail):
            return """
                Bluetooth adapter \(adapter) is busy (\(detail)): another program, usually bluetoothd, is \
                scanning on it or holds the controller. Stop that scan (`bluetoothctl scan off`; close apps \
                that discover devices), or stop bluetoothd (`sudo systemctl stop bluetooth`), or give beacond \
                its own dongle (`--adapter hci1`). If nothing else is scanning (a scanner was killed without \
                stopping), reset the adapter: `sudo hciconfig \(adapter) reset`. See Docs/Gateway.md.
                """
        case .adapterLost(let adapter, let error):
            return "Bluetooth adapter \(adapter) went away (\(error)): it was unplugged or reset."
        case .commandFailed(let adapter, let command, let status):
            return "\(adapter) rejected \(command): \(status)."
        case .commandTimedOut(let adapter, let command, let timeout):
            return "\(adapter) did not answer \(command) within \(timeout.approximate); the controller may be hung (replug it)."
        case .malformedResponse(let adapter, let error):
            return "\(adapter) sent a malformed event: \(error)."
        case .watchdogExpired(let adapter, let period):
            return "No advertising report from \(adapter) for \(period)."
        case .invalidScanParameters(let reason):
            return "Invalid scan parameters: \(reason)."
        case .invalidAdvertising(let reason):
            return "Invalid advertisement: \(reason)."
        case .system(let adapter, let error):
            return "Bluetooth adapter \(adapter): \(error)."
        }
    }

    private static func index(_ adapter: String) -> String {
        adapter.hasPrefix("hci") ? String(adapter.dropFirst(3)) : adapter
    }
}
