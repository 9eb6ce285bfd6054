/// Everything the BlueZ scanner needs to know, fixed at construction.
public struct BlueZScannerConfiguration: Hashable, Sendable {
    /// Which adapter to open.
    public let adapter: AdapterSelection
    /// Passive/active, interval, window, own address type.
    public let scan: ScanParameters
    /// Force legacy or extended scan commands; `nil` picks from the controller's version and
    /// features (and falls back on Command Disallowed).
    public let commandSet: ScanCommandSet?
    /// What the adapter advertises while it scans (`nil`: nothing). Advertising uses the command
    /// set scanning uses; if the controller refuses it, scanning goes on without it (logged).
    public let advertising: BeaconAdvertising?
    /// How long to wait for the controller to answer a command.
    public let commandTimeout: Duration
    /// How long the reader thread blocks in one read before checking for stop and the watchdog.
    public let pollInterval: Duration
    /// Reopen the adapter when no report arrived for this long; `nil` disables the watchdog.
    public let watchdog: Duration?
    /// Waits between reopen attempts.
    public let backoff: ReconnectBackoff
    /// How many batches may wait for the consumer; further batches are dropped (and counted).
    public let bufferCapacity: Int
    /// Most packets per batch (a batch is delivered as soon as the socket has no more to read).
    public let maxPacketsPerBatch: Int

    /// Creates a configuration; the defaults suit a gateway.
    public init(
        adapter: AdapterSelection = .first, scan: ScanParameters = .default,
        commandSet: ScanCommandSet? = nil, advertising: BeaconAdvertising? = nil, commandTimeout: Duration = .seconds(2),
        pollInterval: Duration = .milliseconds(100), watchdog: Duration? = .seconds(60),
        backoff: ReconnectBackoff = ReconnectBackoff(), bufferCapacity: Int = 256,
        maxPacketsPerBatch: Int = 64
    ) {
        self.adapter = adapter
        self.scan = scan
        self.commandSet = commandSet
        self.advertising = advertising
        self.commandTimeout = commandTimeout
        self.pollInterval = pollInterval
        self.watchdog = watchdog
        self.backoff = backoff
        self.bufferCapacity = max(1, bufferCapacity)
        self.maxPacketsPerBatch = max(1, maxPacketsPerBatch)
    }
}
