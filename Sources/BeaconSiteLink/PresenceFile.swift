import BeaconCore
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file of presence lines (one JSON object per line; the format is in `Docs/Site.md`), buffered: what `replay --site --presence FILE`,
/// `simulate --presence FILE` and a hub's `presence:` write.
///
/// With a retention (a hub's `retention.presence`), the file rotates on the cycles' time
/// (BeaconCore's `RotationSchedule`): every half of the limit it becomes `FILE.1` and a new file starts, and
/// the file found at the start becomes `FILE.1` too, so no line outlives the limit by more than
/// a cycle and a restart keeps the lines it finds.
public final class PresenceFile {
    /// The path written to.
    public let path: String
    private var descriptor: FileDescriptor
    private var buffer: [UInt8] = []
    private var failure: Errno?
    private var rotation: RotationSchedule?

    /// Creates (or truncates) the file; with `retention`, a file already there is kept as
    /// `FILE.1` first.
    /// - Throws: `Errno` when it cannot be created.
    public init(path: String, retention: Duration? = nil) throws {
        self.path = path
        rotation = retention.map(RotationSchedule.init(keeping:))
        if retention != nil { try Self.keepOlderPart(path) }
        descriptor = try Self.create(path)
        buffer.reserveCapacity(1 << 16)
    }

    private static func create(_ path: String) throws -> FileDescriptor {
        try FileDescriptor.open(
            FilePath(path), .writeOnly, options: [.create, .truncate, .closeOnExec],
            permissions: [.ownerReadWrite, .groupRead, .otherRead])
    }

    /// Moves `path` (when it exists) over its older part.
    private static func keepOlderPart(_ path: String) throws {
        guard rename(path, RotationSchedule.olderPart(of: path)) == 0 || errno == ENOENT else { throw Errno(rawValue: errno) }
    }

    /// Starts a new part when the retention's schedule says so at `time` (a cycle's end): what
    /// is buffered goes to the current part, which becomes `FILE.1`. A failure is kept for
    /// ``close()``, like a write's.
    public func rotateIfDue(at time: Timestamp) {
        guard rotation?.startsNewPart(at: time) == true else { return }
        flush()
        do {
            try descriptor.close()
            try Self.keepOlderPart(path)
            descriptor = try Self.create(path)
        } catch {
            failure = failure ?? (error as? Errno ?? .ioError)
        }
    }

    /// Appends a line (with its newline); the first write error is kept for ``close()``.
    public func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes what is buffered (a live hub does after each cycle, so readers see whole cycles).
    public func flush() {
        guard failure == nil else { return buffer.removeAll(keepingCapacity: true) }
        do {
            _ = try descriptor.writeAll(buffer)
        } catch {
            failure = error as? Errno ?? .ioError
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and closes.
    /// - Throws: the first write error, if any.
    public func close() throws {
        flush()
        try descriptor.close()
        if let failure { throw failure }
    }
}
