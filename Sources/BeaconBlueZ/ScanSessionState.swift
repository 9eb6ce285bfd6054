import Synchronization

/// What a scan session's reader thread and its async side share, behind one lock.
final class ScanSessionState: Sendable {
    /// The shared fields.
    struct Fields {
        /// The async side wants the thread to stop (cancelled, or the stream was dropped).
        var stopRequested = false
        /// How starting went, once known.
        var startResult: Result<HCIScanController.Started, BlueZScannerError>?
        /// The async side waiting for ``startResult``.
        var startWaiter: CheckedContinuation<Result<HCIScanController.Started, BlueZScannerError>, Never>?
        /// The thread has stopped scanning and closed the socket.
        var finished = false
        /// The async side waiting for ``finished``.
        var finishWaiter: CheckedContinuation<Void, Never>?
        /// Why the adapter stopped working, if it did.
        var failure: BlueZScannerError?
        /// Packets read.
        var received = 0
        /// Packets dropped because the buffer was full.
        var dropped = 0
    }

    /// The fields, locked.
    let fields = Mutex(Fields())

    /// Whether the thread should stop.
    var stopRequested: Bool { fields.withLock { $0.stopRequested } }

    /// Asks the thread to stop.
    func requestStop() { fields.withLock { $0.stopRequested = true } }

    /// Thread side: records how starting went and wakes the waiter.
    func reportStart(_ result: Result<HCIScanController.Started, BlueZScannerError>) {
        let waiter = fields.withLock { fields in
            fields.startResult = result
            defer { fields.startWaiter = nil }
            return fields.startWaiter
        }
        waiter?.resume(returning: result)
    }

    /// Async side: waits for ``reportStart(_:)``.
    func startResult() async -> Result<HCIScanController.Started, BlueZScannerError> {
        await withCheckedContinuation { waiter in
            let ready: Result<HCIScanController.Started, BlueZScannerError>? = fields.withLock { fields in
                if let result = fields.startResult { return result }
                fields.startWaiter = waiter
                return nil
            }
            if let ready { waiter.resume(returning: ready) }
        }
    }

    /// Thread side: the socket is closed; wakes the waiter.
    func reportFinished() {
        let waiter = fields.withLock { fields in
            fields.finished = true
            defer { fields.finishWaiter = nil }
            return fields.finishWaiter
        }
        waiter?.resume()
    }

    /// Async side: asks the thread to stop and waits until it has (not cancellable: the socket
    /// must be closed before the session is let go).
    func stopAndWait() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let done: Bool = fields.withLock { fields in
                fields.stopRequested = true
                if fields.finished { return true }
                fields.finishWaiter = waiter
                return false
            }
            if done { waiter.resume() }
        }
    }
}
