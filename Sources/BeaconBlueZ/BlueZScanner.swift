import BeaconCore

/// The BlueZ HCI scanner: an `AdvertisementSource` that scans on a Linux Bluetooth adapter
/// through a raw HCI socket and delivers the H4 event bytes it reads (LE Meta events carrying
/// advertising reports), stamped with `clock`'s time. It does not parse reports.
///
/// Starting fails fast with a ``BlueZScannerError`` that says what to do (no Bluetooth in the
/// kernel, no such adapter, no permission, adapter down or busy). Once scanning, a lost adapter,
/// a read error or a silent watchdog period makes it reopen the adapter with capped exponential
/// backoff, logging each step. Cancelling the calling task stops it: scanning is disabled and
/// the socket's previous filter restored before ``run(deliver:)`` returns.
public struct BlueZScanner<C: Clock>: AdvertisementSource where C.Instant == Timestamp, C.Duration == Duration {
    /// What to scan and how.
    public let configuration: BlueZScannerConfiguration
    private let transport: any HCITransport
    private let clock: C
    private let log: @Sendable (ScannerEvent) -> Void

    /// Creates a scanner.
    ///
    /// - Parameters:
    ///   - configuration: adapter, scan parameters, watchdog, backoff, buffer.
    ///   - transport: the system calls (``LinuxHCITransport`` for a real adapter).
    ///   - clock: stamps packets and times reopen backoff (`WallClock` for a real adapter).
    ///   - log: receives every start, stop, drop and recovery step.
    public init(
        configuration: BlueZScannerConfiguration, transport: any HCITransport = LinuxHCITransport(),
        clock: C, log: @escaping @Sendable (ScannerEvent) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.transport = transport
        self.clock = clock
        self.log = log
    }

    /// `hci0`, or `hci` for the first adapter.
    public var name: String {
        switch configuration.adapter {
        case .first: "hci"
        case .index(let index): "hci\(index)"
        }
    }

    /// Scans until the calling task is cancelled; see the type's documentation.
    ///
    /// - Throws: a ``BlueZScannerError`` when scanning cannot start, or when the adapter fails
    ///   in a way reopening cannot fix (e.g. permissions); whatever `deliver` throws.
    public func run(deliver: (borrowing PacketBatch) async throws -> Void) async throws {
        var session = try await openSession()
        var attempt = 0
        while true {
            let outcome = try await session.pump(deliver)
            guard let failure = outcome.failure else { return }
            if outcome.received > 0 { attempt = 0 }
            log(.sessionLost(failure))
            guard failure.isRecoverable else { throw failure }
            while true {
                attempt += 1
                let delay = configuration.backoff.delay(beforeAttempt: attempt)
                log(.reopenScheduled(attempt: attempt, delay: delay))
                do { try await clock.sleep(for: delay) } catch { return } // cancelled while waiting
                if Task.isCancelled { return }
                do {
                    session = try await openSession()
                    log(.reopened(attempt: attempt))
                    break
                } catch {
                    log(.reopenFailed(attempt: attempt, error))
                    guard error.isRecoverable else { throw error }
                }
            }
        }
    }

    private func openSession() async throws(BlueZScannerError) -> ScanSession<C> {
        try await ScanSession.start(transport: transport, configuration: configuration, clock: clock, log: log)
    }
}
