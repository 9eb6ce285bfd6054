import BeaconBlueZ
import BeaconCore
import Synchronization

/// Collects what the scanner logs.
final class EventLog: Sendable {
    private let storage = Mutex<[ScannerEvent]>([])
    var events: [ScannerEvent] { storage.withLock { $0 } }
    func append(_ event: ScannerEvent) { storage.withLock { $0.append(event) } }
}

/// What one scanner run delivered, logged and threw.
struct ScannerRun {
    var packets: [[UInt8]] = []
    var timestamps: [Timestamp] = []
    var linkTypes: Set<LinkType> = []
    var batches = 0
    var events: [ScannerEvent] = []
    var error: (any Error)?

    var scannerError: BlueZScannerError? { error as? BlueZScannerError }
}

/// Runs `scanner` until it has delivered `stopAfter` packets (then cancels it, as Ctrl-C would)
/// or it returns or throws by itself.
func runScanner<C: Clock>(
    _ configuration: BlueZScannerConfiguration, transport: any HCITransport, clock: C,
    stopAfter: Int = .max,
    onBatch: @escaping @Sendable (Int) async -> Void = { _ in }
) async -> ScannerRun
where C.Instant == Timestamp, C.Duration == Duration {
    let log = EventLog()
    let scanner = BlueZScanner(
        configuration: configuration, transport: transport, clock: clock,
        log: { log.append($0) })
    let task = Task { () -> ScannerRun in
        var run = ScannerRun()
        do {
            try await scanner.run { batch in
                run.batches += 1
                batch.forEachPacket { record, bytes in
                    run.packets.append(Array(bytes))
                    run.timestamps.append(record.timestamp)
                    run.linkTypes.insert(record.linkType)
                }
                await onBatch(run.batches)
                if run.packets.count >= stopAfter { withUnsafeCurrentTask { $0?.cancel() } }
            }
        } catch {
            run.error = error
        }
        return run
    }
    var run = await task.value
    run.events = log.events
    return run
}
