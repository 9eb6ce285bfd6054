import BeaconGateway
import SystemPackage

/// Buffered line output to standard output: one `write(2)` per 64 KiB rather than per line.
///
/// The commands write standard output and error with swift-system's `FileDescriptor.writeAll`
/// (short writes and EINTR retried) and drop a failure (`_ = try?`): there is nowhere left to
/// report it. A reader that goes away (`beacond parse … | head`) ends the command with SIGPIPE,
/// whose default the commands keep, before EPIPE is seen; where SIGPIPE is ignored (an exec sink
/// ignores it for the process), EPIPE drops the rest of the output and the command runs to its end.
struct StandardOutput {
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 16) }

    /// Appends `line` and a newline; writes out when the buffer is full.
    mutating func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes everything buffered.
    mutating func flush() {
        _ = try? FileDescriptor.standardOutput.writeAll(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Writes `message` and a newline to standard error, unbuffered (a failure is dropped, as
/// ``StandardOutput`` explains). Under journald a line that starts with `error:` carries the
/// error priority (`<3>`), so that `journalctl -p err` shows why a daemon stopped; the others
/// the notice priority (`<5>`), as the daemon's summary and stopping lines are.
func printError(_ message: String) {
    var line = message
    if standardErrorIsJournal { line = (message.hasPrefix("error:") ? "<3>" : "<5>") + line }
    _ = try? FileDescriptor.standardError.writeAll((line + "\n").utf8)
}

/// Whether standard error is the journal's stream (``DaemonLogHandler/standardErrorIsJournal(environment:)``).
private let standardErrorIsJournal = DaemonLogHandler.standardErrorIsJournal()
