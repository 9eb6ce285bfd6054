import BeaconBlueZ
import BeaconConfiguration

/// How the daemon drives its radio (`source: {hci: hci0, …}`): the same choices as `beacond scan`.
public struct HCISourceSettings: Hashable, Sendable {
    /// The adapter (`hci0`, or its index); `nil`: the first one that is up.
    public var adapter: String?
    /// Active scanning (scan requests); passive by default.
    public var active: Bool
    /// The scan interval (2.5 ms … 10.24 s).
    public var interval: Duration
    /// The scan window, at most the interval (equal: listen continuously).
    public var window: Duration
    /// Reopen the adapter after this long without a report; `nil`: never.
    public var watchdog: Duration?
    /// Also write every HCI packet received to this btsnoop file.
    public var record: String?

    /// Creates settings; the defaults are `beacond scan`'s.
    public init(
        adapter: String? = nil, active: Bool = false, interval: Duration = .milliseconds(100),
        window: Duration = .milliseconds(100), watchdog: Duration? = .seconds(60), record: String? = nil
    ) {
        self.adapter = adapter
        self.active = active
        self.interval = interval
        self.window = window
        self.watchdog = watchdog
        self.record = record
    }

    /// The keys of the mapping form besides `hci`.
    static let keys = ["active", "interval", "window", "watchdog", "record"]

    /// The scanner configuration, advertising `advertising` while it scans (a site gateway's
    /// `site.advertise`); throws when a value cannot work.
    package func scannerConfiguration(advertising: BeaconAdvertising? = nil) throws(BlueZScannerError)
        -> BlueZScannerConfiguration
    {
        let scan = try ScanParameters(type: active ? .active : .passive, interval: interval, window: window)
        return BlueZScannerConfiguration(
            adapter: try AdapterSelection(adapter), scan: scan, advertising: advertising, watchdog: watchdog)
    }

    /// Reads the radio keys of a `source:` mapping (`hci:` already read as `adapter`), checking
    /// the scan parameters at their line.
    init(adapter: String?, node: ConfigNode) throws(ConfigurationError) {
        self.init(adapter: adapter)
        if let value = node["active"] { active = try value.bool() }
        if let value = node["interval"] { interval = try value.duration() }
        if let value = node["window"] { window = try value.duration() }
        if let value = node["watchdog"] {
            let period = try value.duration()
            watchdog = period > .zero ? period : nil
        }
        if let value = node["record"] { record = try value.string() }
        do {
            _ = try scannerConfiguration()
        } catch {
            throw (node["interval"] ?? node["window"] ?? node["hci"] ?? node).error("\(error)")
        }
    }
}
