import ArgumentParser
import BeaconBlueZ
import BeaconCore
import BeaconWire
import UnixSignals

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `beacond scan`: scans on a BlueZ adapter and prints what it hears like `beacond parse`.
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan for BLE advertisements on a BlueZ adapter and print them like `beacond parse`.",
        discussion: """
            Needs CAP_NET_RAW: `sudo setcap cap_net_raw+ep $(command -v beacond)`. Stops after \
            --duration, on Ctrl-C or SIGTERM, disabling scanning first. Log lines go to stderr. \
            See Docs/Gateway.md.
            """)

    @Option(help: "Adapter to scan on: hci0, hci1 … or its index (default: the first one that is up).")
    var adapter: String?

    @Flag(help: "Active scanning: also send scan requests and print scan responses.")
    var active = false

    @Option(help: "Scan interval, 2.5ms … 10.24s.")
    var interval = "100ms"

    @Option(help: "Scan window, at most the interval (equal = listen continuously).")
    var window = "100ms"

    @Option(name: .customLong("own-address"), help: "Own address type for scan requests: public or random.")
    var ownAddress = "public"

    @Option(help: "Stop after this long (500ms, 10s, 5m, 1h); default: until interrupted.")
    var duration: String?

    @Option(help: "Output format: jsonl or csv (as `beacond parse`).")
    var format: AdvertisementOutputFormat = .jsonLines

    @Option(help: "Also write the raw HCI events to this btsnoop file.")
    var record: String?

    @Option(help: "Reopen the adapter after this long without a report (0s = never).")
    var watchdog = "60s"

    func validate() throws {
        _ = try scannerConfiguration()
        _ = try duration.map { try Self.parseDuration($0, option: "--duration") }
    }

    func run() async throws {
        let configuration = try scannerConfiguration()
        let stopAfter = try duration.map { try Self.parseDuration($0, option: "--duration") }
        let scanner = BlueZScanner(configuration: configuration, clock: WallClock(), log: Self.log)
        let (format, record) = (self.format, self.record)
        let controllerIndex: UInt16 = if case .index(let index) = configuration.adapter { index } else { 0 }
        // One task group: the scan, and what ends it (SIGINT/SIGTERM, --duration). Cancelling the
        // scan lets the scanner disable scanning and restore its filter before it returns.
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    let output = try ScanOutput(format: format, recordPath: record, controllerIndex: controllerIndex)
                    do {
                        try await scanner.run { batch in try output.write(batch) }
                    } catch {
                        output.abandon()
                        throw error
                    }
                    try output.finish()
                    printError("beacond scan: \(output.summaryLine)")
                }
                group.addTask {
                    for await _ in signals { return }
                }
                if let stopAfter {
                    group.addTask { try? await Task.sleep(for: stopAfter) }
                }
                // The first to end (the scan, a signal, the duration) ends the others.
                try await group.next()
                group.cancelAll()
                try await group.waitForAll()
            }
        } catch let error as BlueZScannerError {
            printError("beacond scan: error: \(error)")
            throw ExitCode(Self.exitStatus(for: error))
        }
    }

    /// The scanner configuration from the options.
    func scannerConfiguration() throws -> BlueZScannerConfiguration {
        do {
            let scan = try ScanParameters(
                type: active ? .active : .passive,
                interval: try Self.parseDuration(interval, option: "--interval"),
                window: try Self.parseDuration(window, option: "--window"),
                ownAddressType: try Self.ownAddressType(ownAddress))
            let watchdogPeriod = try Self.parseDuration(watchdog, option: "--watchdog")
            return BlueZScannerConfiguration(
                adapter: try AdapterSelection(adapter), scan: scan,
                watchdog: watchdogPeriod > .zero ? watchdogPeriod : nil)
        } catch let error as BlueZScannerError {
            throw ValidationError(error.description)
        }
    }

    /// sysexits.h: 69 unavailable, 75 temporary failure, 77 no permission, 1 otherwise.
    static func exitStatus(for error: BlueZScannerError) -> Int32 {
        switch error {
        case .bluetoothUnavailable, .noAdapters, .noSuchAdapter: 69
        case .permissionDenied: 77
        case .adapterDown, .adapterBlocked, .adapterBusy: 75
        case .invalidAdapterName, .invalidScanParameters, .invalidAdvertising: 64
        default: 1
        }
    }

    private static func ownAddressType(_ text: String) throws -> ScanParameters.OwnAddressType {
        switch text {
        case "public": return .public
        case "random": return .random
        default: throw ValidationError("--own-address must be public or random, not '\(text)'")
        }
    }

    @Sendable private static func log(_ event: ScannerEvent) {
        let level =
            switch event.level {
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        printError("beacond scan: [\(level)] \(event)")
    }
}
