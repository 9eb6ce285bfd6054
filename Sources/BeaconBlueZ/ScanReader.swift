import BeaconCore
import Synchronization

/// The reader thread's side of a scan session: starts scanning, reads packets into batches
/// stamped with the injected clock, yields them to a bounded stream (counting and logging what
/// it drops), watches for silence, and stops scanning when asked or when the adapter fails.
final class ScanReader<C: Clock>: @unchecked Sendable where C.Instant == Timestamp, C.Duration == Duration {
    // @unchecked: `controller` is not Sendable; only the reader thread touches it, after init.
    private let state: ScanSessionState
    private let continuation: AsyncStream<PacketBatch>.Continuation
    private let configuration: BlueZScannerConfiguration
    private let clock: C
    private let log: @Sendable (ScannerEvent) -> Void
    private let controller: HCIScanController

    init(
        state: ScanSessionState, continuation: AsyncStream<PacketBatch>.Continuation,
        configuration: BlueZScannerConfiguration, transport: any HCITransport, clock: C,
        log: @escaping @Sendable (ScannerEvent) -> Void
    ) {
        self.state = state
        self.continuation = continuation
        self.configuration = configuration
        self.clock = clock
        self.log = log
        controller = HCIScanController(transport: transport, configuration: configuration, log: log)
    }

    /// The thread's body: start, read until stopped or failed, stop, finish the stream.
    func run() {
        let result: Result<HCIScanController.Started, BlueZScannerError>
        do { result = .success(try controller.start()) } catch { result = .failure(error) }
        state.reportStart(result)
        if case .success(let started) = result {
            log(
                .started(
                    adapter: started.adapter, version: started.version, commands: started.commands,
                    scan: configuration.scan))
            if let advertising = configuration.advertising, started.advertising {
                log(.advertising(adapter: started.adapter.name, advertising, commands: started.commands))
            }
            if let refusal = started.advertisingRefusal {
                log(.advertisingRefused(adapter: started.adapter.name, refusal))
            }
            readLoop()
            controller.stop()
            let (received, dropped) = state.fields.withLock { ($0.received, $0.dropped) }
            log(.sessionEnded(adapter: controller.adapterName, received: received, dropped: dropped))
        }
        continuation.finish()
        state.reportFinished()
    }

    private func readLoop() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: HCIScanController.packetBufferSize,
            alignment: 8)
        defer { buffer.deallocate() }
        let limit = configuration.maxPacketsPerBatch
        var batch = PacketBatch(byteCapacity: limit * 64, packetCapacity: limit)
        var lastPacket = clock.now
        while !state.stopRequested {
            let count: Int?
            do {
                // Block for the poll interval when idle; drain without waiting while packets flow.
                count = try controller.readPacket(
                    into: buffer,
                    timeout: batch.isEmpty ? configuration.pollInterval : .zero)
            } catch {
                fail(error)
                break
            }
            if let count {
                let now = clock.now
                batch.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]), linkType: .hciH4, timestamp: now)
                lastPacket = now
                state.fields.withLock { $0.received += 1 }
                if batch.count < limit { continue }
            } else if batch.isEmpty {
                if let watchdog = configuration.watchdog, clock.now - lastPacket >= watchdog {
                    fail(.watchdogExpired(adapter: controller.adapterName, period: watchdog))
                    break
                }
                continue
            }
            flush(batch)
            batch = PacketBatch(byteCapacity: limit * 64, packetCapacity: limit)
        }
        if !batch.isEmpty { flush(batch) }
    }

    /// Hands a batch to the consumer; when the buffer is full the batch is dropped and counted.
    private func flush(_ batch: PacketBatch) {
        guard case .dropped(let lost) = continuation.yield(batch) else { return }
        let total = state.fields.withLock { fields in
            fields.dropped += lost.count
            return fields.dropped
        }
        if Self.crossesPowerOfTen(total: total, added: lost.count) { log(.packetsDropped(total: total)) }
    }

    /// True when the running total passed 1, 10, 100, … with this drop (so the log does not
    /// flood while the consumer is stuck).
    static func crossesPowerOfTen(total: Int, added: Int) -> Bool {
        var mark = 1
        while mark <= total {
            if total - added < mark { return true }
            mark *= 10
        }
        return false
    }

    private func fail(_ error: BlueZScannerError) {
        state.fields.withLock { $0.failure = error }
    }
}
