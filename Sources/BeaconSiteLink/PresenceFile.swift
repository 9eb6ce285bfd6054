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
/// With a retention (a hub's `retention.presence`), the file is appended to across restarts and
/// rotates on the cycles' time (BeaconCore's `RotationSchedule`): every half of the limit it
/// becomes `FILE.1` and a new file starts. The part found at a start counts from its first
/// line's time, so no line outlives the limit by more than a cycle and a restart loses nothing.
public final class PresenceFile {
    /// The path written to.
    public let path: String
    private var descriptor: FileDescriptor
    private var buffer: [UInt8] = []
    private var failure: Errno?
    private var rotation: RotationSchedule?
    /// Why the last rotation failed (the file is then written on, and the rotation tried again a
    /// period later); `nil` when it did not.
    public private(set) var rotationFailure: String?

    /// Creates (or truncates) the file; with `retention`, appends to a file already there.
    /// - Throws: `Errno` when it cannot be created.
    public init(path: String, retention: Duration? = nil) throws {
        self.path = path
        if let retention {
            rotation = RotationSchedule(keeping: retention, partStart: Self.firstTime(in: path))
            descriptor = try Self.open(path, options: [.create, .append, .closeOnExec])
        } else {
            descriptor = try Self.open(path, options: [.create, .truncate, .closeOnExec])
        }
        buffer.reserveCapacity(1 << 16)
    }

    private static func open(_ path: String, options: FileDescriptor.OpenOptions) throws -> FileDescriptor {
        try FileDescriptor.open(
            FilePath(path), .writeOnly, options: options, permissions: [.ownerReadWrite, .groupRead, .otherRead])
    }

    /// The `time` of the first line of the file at `path`; `nil` when it has none (no file, an
    /// empty one, or a first line without a readable time).
    static func firstTime(in path: String) -> Timestamp? {
        guard let file = try? FileDescriptor.open(FilePath(path), .readOnly) else { return nil }
        defer { try? file.close() }
        var head = [UInt8](repeating: 0, count: 4096)
        let count = (try? head.withUnsafeMutableBytes { try file.read(into: $0) }) ?? 0
        let line = head.prefix(count).prefix { $0 != UInt8(ascii: "\n") }
        return Timestamp(timeMemberOf: String(decoding: line, as: UTF8.self))
    }

    /// Starts a new part when the retention's schedule says so at `time` (a cycle's end): what
    /// is buffered goes to the current part, which becomes `FILE.1`. When the rename fails the
    /// file is written on (``rotationFailure`` says why, and so does the return value) and the
    /// rotation is tried a period later.
    @discardableResult
    public func rotateIfDue(at time: Timestamp) -> String? {
        guard rotation?.startsNewPart(at: time) == true else { return nil }
        flush()
        // Renamed while open: the lines go on to the old part until the new one is open.
        guard rename(path, RotationSchedule.olderPart(of: path)) == 0 else {
            rotationFailure =
                "cannot rename \(path) to \(RotationSchedule.olderPart(of: path)): \(String(cString: strerror(errno)))"
            return rotationFailure
        }
        do {
            let next = try Self.open(path, options: [.create, .truncate, .closeOnExec])
            try? descriptor.close()
            descriptor = next
            rotationFailure = nil
        } catch {
            rotationFailure =
                "cannot create \(path) after rotating it: \(error); writing on to \(RotationSchedule.olderPart(of: path))"
        }
        return rotationFailure
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
