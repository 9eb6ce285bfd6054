import BeaconCore
import Synchronization

/// One open adapter: a dedicated thread that starts scanning, reads packets into batches,
/// stamps them with the injected clock and hands them to the async side through a bounded
/// buffer (dropping, and counting, what does not fit), then stops scanning and restores the
/// filter when asked to or when the adapter fails.
final class ScanSession<C: Clock>: Sendable where C.Instant == Timestamp, C.Duration == Duration {
    /// How a session ended.
    struct Outcome: Sendable {
        /// Why the adapter stopped working; `nil` when the session was stopped on purpose.
        var failure: BlueZScannerError?
        /// Packets read.
        var received: Int
        /// Packets dropped because the buffer was full.
        var dropped: Int
    }

    fileprivate struct State {
        var stopRequested = false
        var startResult: Result<HCIScanController.Started, BlueZScannerError>?
        var startWaiter: CheckedContinuation<Result<HCIScanController.Started, BlueZScannerError>, Never>?
        var finished = false
        var finishWaiter: CheckedContinuation<Void, Never>?
        var failure: BlueZScannerError?
        var received = 0
        var dropped = 0
    }

    /// What the controller found when scanning started.
    let started: HCIScanController.Started
    private let shared: Shared
    private let stream: AsyncStream<PacketBatch>

    private init(started: HCIScanController.Started, shared: Shared, stream: AsyncStream<PacketBatch>) {
        self.started = started
        self.shared = shared
        self.stream = stream
    }

    /// Starts the thread and waits until scanning is on (or failed to start).
    static func start(transport: any HCITransport, configuration: BlueZScannerConfiguration, clock: C,
                      log: @escaping @Sendable (ScannerEvent) -> Void) async throws(BlueZScannerError) -> ScanSession {
        let shared = Shared()
        let (stream, continuation) = AsyncStream<PacketBatch>.makeStream(
            bufferingPolicy: .bufferingOldest(configuration.bufferCapacity))
        continuation.onTermination = { _ in shared.state.withLock { $0.stopRequested = true } }
        let reader = Reader(shared: shared, continuation: continuation, configuration: configuration, clock: clock,
                            log: log, controller: HCIScanController(transport: transport, configuration: configuration,
                                                                    log: log))
        DedicatedThread.start { reader.run() }
        let result = await withCheckedContinuation { waiter in
            let ready: Result<HCIScanController.Started, BlueZScannerError>? = shared.state.withLock { state in
                if let result = state.startResult { return result }
                state.startWaiter = waiter
                return nil
            }
            if let ready { waiter.resume(returning: ready) }
        }
        let started = try result.get()
        return ScanSession(started: started, shared: shared, stream: stream)
    }

    /// Delivers batches until the session is cancelled (the calling task) or the adapter fails;
    /// then waits until the thread has disabled scanning and restored the filter.
    func pump(_ deliver: (borrowing PacketBatch) async throws -> Void) async throws -> Outcome {
        do {
            for await batch in stream { try await deliver(batch) }
        } catch {
            await stop()
            throw error
        }
        await stop()
        return shared.state.withLock { Outcome(failure: $0.failure, received: $0.received, dropped: $0.dropped) }
    }

    /// Asks the thread to stop and waits until it has.
    private func stop() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let done: Bool = shared.state.withLock { state in
                state.stopRequested = true
                if state.finished { return true }
                state.finishWaiter = waiter
                return false
            }
            if done { waiter.resume() }
        }
    }

    /// The state both sides share.
    fileprivate final class Shared: Sendable {
        let state = Mutex(State())
    }

    /// The thread's side: owns the controller, which only it touches.
    fileprivate final class Reader: @unchecked Sendable {
        // @unchecked: `controller` is used by the reader thread alone, after construction.
        let shared: Shared
        let continuation: AsyncStream<PacketBatch>.Continuation
        let configuration: BlueZScannerConfiguration
        let clock: C
        let log: @Sendable (ScannerEvent) -> Void
        let controller: HCIScanController

        init(shared: Shared, continuation: AsyncStream<PacketBatch>.Continuation,
             configuration: BlueZScannerConfiguration, clock: C, log: @escaping @Sendable (ScannerEvent) -> Void,
             controller: HCIScanController) {
            self.shared = shared
            self.continuation = continuation
            self.configuration = configuration
            self.clock = clock
            self.log = log
            self.controller = controller
        }

        func run() {
            let result: Result<HCIScanController.Started, BlueZScannerError>
            do { result = .success(try controller.start()) } catch { result = .failure(error) }
            let waiter = shared.state.withLock { state in
                state.startResult = result
                defer { state.startWaiter = nil }
                return state.startWaiter
            }
            waiter?.resume(returning: result)
            if case .success(let started) = result {
                log(.started(adapter: started.adapter, version: started.version, commands: started.commands,
                             scan: configuration.scan))
                readLoop()
                controller.stop()
                let (received, dropped) = shared.state.withLock { ($0.received, $0.dropped) }
                log(.sessionEnded(adapter: controller.adapterName, received: received, dropped: dropped))
            }
            continuation.finish()
            let finishWaiter = shared.state.withLock { state in
                state.finished = true
                defer { state.finishWaiter = nil }
                return state.finishWaiter
            }
            finishWaiter?.resume()
        }

        private var stopRequested: Bool { shared.state.withLock { $0.stopRequested } }

        private func readLoop() {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: HCIScanController.packetBufferSize,
                                                                 alignment: 8)
            defer { buffer.deallocate() }
            let limit = configuration.maxPacketsPerBatch
            var batch = PacketBatch(byteCapacity: limit * 64, packetCapacity: limit)
            var lastPacket = clock.now
            while !stopRequested {
                let count: Int?
                do {
                    count = try controller.readPacket(into: buffer,
                                                      timeout: batch.isEmpty ? configuration.pollInterval : .zero)
                } catch {
                    fail(error)
                    break
                }
                if let count {
                    let now = clock.now
                    batch.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]), linkType: .hciH4, timestamp: now)
                    lastPacket = now
                    shared.state.withLock { $0.received += 1 }
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

        private func flush(_ batch: PacketBatch) {
            guard case .dropped(let lost) = continuation.yield(batch) else { return }
            let total = shared.state.withLock { state in
                state.dropped += lost.count
                return state.dropped
            }
            if Self.crossesPowerOfTen(total: total, added: lost.count) { log(.packetsDropped(total: total)) }
        }

        /// True when the running total passed 1, 10, 100, … with this drop.
        static func crossesPowerOfTen(total: Int, added: Int) -> Bool {
            var mark = 1
            while mark <= total {
                if total - added < mark { return true }
                mark *= 10
            }
            return false
        }

        private func fail(_ error: BlueZScannerError) {
            shared.state.withLock { $0.failure = error }
        }
    }
}
