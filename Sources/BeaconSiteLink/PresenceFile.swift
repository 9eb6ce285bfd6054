import SystemPackage

/// A file of presence lines (one JSON object per line; the format is in `Docs/Site.md`), buffered: what `replay --site --presence FILE`,
/// `simulate --presence FILE` and a hub's `presence:` write.
public final class PresenceFile {
    private let descriptor: FileDescriptor
    private var buffer: [UInt8] = []
    private var failure: Errno?

    /// Creates (or truncates) the file.
    /// - Throws: `Errno` when it cannot be created.
    public init(path: String) throws {
        descriptor = try FileDescriptor.open(
            FilePath(path), .writeOnly, options: [.create, .truncate], permissions: [.ownerReadWrite, .groupRead, .otherRead])
        buffer.reserveCapacity(1 << 16)
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
