import BeaconCore
import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The daemon's swift-log handler: each record as one line of ``LogLineFormat`` on standard
/// error, written whole under a lock (lines of concurrent records never interleave).
public struct DaemonLogHandler: LogHandler {
    /// The line format.
    public let format: LogLineFormat
    private let write: @Sendable (String) -> Void
    private let now: @Sendable () -> Timestamp
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?

    /// A handler writing `format`'s lines to `write` (standard error by default), stamped with
    /// `now` (the wall clock by default: a log line tells when it was written, whatever the
    /// daemon's time).
    public init(
        format: LogLineFormat, write: @escaping @Sendable (String) -> Void = DaemonLogHandler.standardError,
        now: @escaping @Sendable () -> Timestamp = { WallClock().now }
    ) {
        self.format = format
        self.write = write
        self.now = now
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let explicit = event.metadata { merged.merge(explicit) { _, new in new } }
        let line = format.line(
            level: event.level, message: "\(event.message)", metadata: merged, source: event.source, time: now())
        write(line + "\n")
    }

    /// Writes `text` to standard error in one call (a failure is dropped: there is nowhere left
    /// to report it).
    public static let standardError: @Sendable (String) -> Void = { text in
        var bytes = Array(text.utf8)
        var offset = 0
        // One writer at a time: a long line written in parts is not cut by another's.
        writing.lock()
        defer { writing.unlock() }
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Held while a line is written to standard error.
    private static let writing = NSLock()

    /// Whether standard error is the journal's stream: `JOURNAL_STREAM` (`DEVICE:INODE`, which
    /// systemd sets for a unit whose output goes to the journal) names it.
    public static func standardErrorIsJournal(environment: [String: String]? = nil) -> Bool {
        let variable =
            environment.map { $0["JOURNAL_STREAM"] } ?? getenv("JOURNAL_STREAM").map { String(cString: $0) }
        guard let variable else { return false }
        let parts = variable.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}
