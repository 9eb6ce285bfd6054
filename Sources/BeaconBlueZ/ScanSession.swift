import BeaconCore
import Synchronization

/// One open adapter: a dedicated thread (``ScanReader``) that starts scanning and reads packets,
/// and this async side, which delivers its batches from a bounded stream and, when cancelled,
/// waits until the thread has disabled scanning, restored the filter and closed the socket.
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

    /// What the controller found when scanning started.
    let started: HCIScanController.Started
    private let state: ScanSessionState
    private let stream: AsyncStream<PacketBatch>

    private init(started: HCIScanController.Started, state: ScanSessionState, stream: AsyncStream<PacketBatch>) {
        self.started = started
        self.state = state
        self.stream = stream
    }

    /// Starts the reader thread and waits until scanning is on (or failed to start).
    static func start(
        transport: any HCITransport, configuration: BlueZScannerConfiguration, clock: C,
        log: @escaping @Sendable (ScannerEvent) -> Void
    ) async throws(BlueZScannerError) -> ScanSession {
        let state = ScanSessionState()
        let (stream, continuation) = AsyncStream<PacketBatch>.makeStream(
            bufferingPolicy: .bufferingOldest(configuration.bufferCapacity))
        continuation.onTermination = { _ in state.requestStop() }
        let reader = ScanReader(
            state: state, continuation: continuation, configuration: configuration,
            transport: transport, clock: clock, log: log)
        DedicatedThread.start { reader.run() }
        let started = try await state.startResult().get()
        return ScanSession(started: started, state: state, stream: stream)
    }

    /// Delivers batches until the calling task is cancelled or the adapter fails; then waits
    /// until the thread has stopped scanning and closed the socket.
    func pump(_ deliver: (borrowing PacketBatch) async throws -> Void) async throws -> Outcome {
        do {
            for await batch in stream { try await deliver(batch) }
        } catch {
            await state.stopAndWait()
            throw error
        }
        await state.stopAndWait()
        return state.fields.withLock { Outcome(failure: $0.failure, received: $0.received, dropped: $0.dropped) }
    }
}
