import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes each event as one JSON line (``OutboundEvent/body`` + `\n`) to standard output or
/// appends it to a file; ``flush()`` fsyncs the file, so what was confirmed survives a power cut.
/// A file that ends in a torn line (a write cut short by a crash or a full disk) gets a line
/// break before the next event, which stays readable.
public final class JSONLinesSink: AlertSink {
    /// The path written, or `-` for standard output.
    public let path: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// The file ended in a torn line (a crash or a full disk cut a write short): the first event
    /// starts a new line, so the torn one cannot swallow it.
    private let startsNewLine: Mutex<Bool>

    /// Opens `path` for appending (creating it, mode 0640), or standard output for `-`.
    /// - Throws: ``SinkError/io(path:operation:errno:)`` if the file cannot be opened.
    public init(path: String) throws(SinkError) {
        self.path = path
        if path == "-" {
            descriptor = STDOUT_FILENO
            ownsDescriptor = false
        } else {
            let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o640)
            guard fd >= 0 else { throw .io(path: path, operation: "open for appending", errno: errno) }
            descriptor = fd
            ownsDescriptor = true
        }
        startsNewLine = Mutex(Self.endsInTornLine(descriptor, path: path))
    }

    /// Whether the regular file open at `descriptor` (for appending only, so read through a
    /// descriptor of its own) is non-empty and does not end with `\n`.
    private static func endsInTornLine(_ descriptor: Int32, path: String) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else {
            return false
        }
        let reader = open(path, O_RDONLY | O_CLOEXEC)
        guard reader >= 0 else { return false }
        defer { close(reader) }
        var last: UInt8 = 0
        return pread(reader, &last, 1, status.st_size - 1) == 1 && last != 0x0A
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// `jsonl:` and the path.
    public var name: String { "jsonl:" + (path == "-" ? "stdout" : path) }

    /// Writes the line whole (swift-system's `writeAll`: short writes and interruptions retried).
    /// - Throws: ``SinkError/io(path:operation:errno:)`` with the errno of a failed write; what
    ///   was written of the line before it stays, and the outbox delivers the event again.
    public func deliver(_ event: OutboundEvent) async throws {
        var bytes: [UInt8] = startsNewLine.withLock { $0 } ? [0x0A] : []
        bytes += event.body.utf8
        bytes.append(0x0A)
        do {
            try FileDescriptor(rawValue: descriptor).writeAll(bytes)
        } catch let error as Errno {
            throw SinkError.io(path: path, operation: "write", errno: error.rawValue)
        }
        startsNewLine.withLock { $0 = false }
    }

    /// fsyncs a file (standard output, often a pipe or terminal, is left as it is; so is a path
    /// that is not a regular file — `/dev/null`, a FIFO — which has nothing to sync: EINVAL).
    public func flush() async throws {
        guard ownsDescriptor else { return }
        if fsync(descriptor) != 0, errno != EINVAL { throw SinkError.io(path: path, operation: "fsync", errno: errno) }
    }
}
