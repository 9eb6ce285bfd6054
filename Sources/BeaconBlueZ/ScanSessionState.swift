import BeaconCore
import Synchronization

/// What a scan session's reader thread and its async side share: the counters behind one lock,
/// and two one-shots the async side waits on.
final class ScanSessionState: Sendable {
    /// The shared fields.
    struct Fields {
        /// The async side wants the thread to stop (cancelled, or the stream was dropped).
        var stopRequested = false
        /// Why the adapter stopped working, if it did.
        var failure: BlueZScannerError?
        /// Packets read.
        var received = 0
        /// Packets dropped because the buffer was full.
        var dropped = 0
    }

    /// The fields, locked.
    let fields = Mutex(Fields())
    /// How starting went, once known.
    private let started = OneShot<Result<HCIScanController.Started, BlueZScannerError>>()
    /// The thread has stopped scanning and closed the socket.
    private let finished = OneShot<Void>()

    /// Whether the thread should stop.
    var stopRequested: Bool { fields.withLock { $0.stopRequested } }

    /// Asks the thread to stop.
    func requestStop() { fields.withLock { $0.stopRequested = true } }

    /// Thread side: records how starting went and wakes the waiter.
    func reportStart(_ result: Result<HCIScanController.Started, BlueZScannerError>) {
        started.resume(returning: result)
    }

    /// Async side: waits for ``reportStart(_:)``.
    func startResult() async -> Result<HCIScanController.Started, BlueZScannerError> {
        await started.value
    }

    /// Thread side: the socket is closed; wakes the waiter.
    func reportFinished() {
        finished.resume()
    }

    /// Async side: asks the thread to stop and waits until it has (not cancellable: the socket
    /// must be closed before the session is let go).
    func stopAndWait() async {
        requestStop()
        await finished.value
    }
}
