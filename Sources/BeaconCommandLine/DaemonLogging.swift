import Logging
import Synchronization

/// The daemon's logging: swift-log's stream handler on standard error (one line per record:
/// time, level, label, metadata, message), at the level asked, bootstrapped once per process.
enum DaemonLogging {
    private static let bootstrapped = Mutex(false)

    /// A `beacond` logger at `level` (the process-wide logging system is set up on first use).
    static func logger(level: Logger.Level) -> Logger {
        bootstrapped.withLock { done in
            guard !done else { return }
            LoggingSystem.bootstrap { label in StreamLogHandler.standardError(label: label) }
            done = true
        }
        var logger = Logger(label: "beacond")
        logger.logLevel = level
        return logger
    }
}
