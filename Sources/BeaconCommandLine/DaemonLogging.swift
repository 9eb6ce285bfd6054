import ArgumentParser
import BeaconGateway
import Logging
import Synchronization

/// The daemon's logging: ``DaemonLogHandler`` on standard error (one line per record: time,
/// level, source, message, metadata — or logfmt, or JSON), at the level asked, bootstrapped once
/// per process. Under journald (`JOURNAL_STREAM` names standard error) each line carries its
/// syslog priority and no time of its own.
enum DaemonLogging {
    private static let bootstrapped = Mutex(false)

    /// A `beacond` logger at `level`, its lines in `style` (the process-wide logging system is
    /// set up on first use; later calls keep the first style).
    static func logger(level: Logger.Level, style: LogLineFormat.Style = .text) -> Logger {
        bootstrapped.withLock { done in
            guard !done else { return }
            let format = LogLineFormat(style: style, isJournal: DaemonLogHandler.standardErrorIsJournal())
            LoggingSystem.bootstrap { _ in DaemonLogHandler(format: format) }
            done = true
        }
        var logger = Logger(label: "beacond")
        logger.logLevel = level
        return logger
    }
}

extension LogLineFormat.Style: ExpressibleByArgument {}
