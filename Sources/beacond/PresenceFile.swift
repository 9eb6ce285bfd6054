import SystemPackage

/// The file `replay --site --presence FILE` writes its lines to, buffered.
final class PresenceFile {
    private let descriptor: FileDescriptor
    private var buffer: [UInt8] = []
    private var failure: Errno?

    /// Creates (or truncates) the file.
    init(path: String) throws {
        descriptor = try FileDescriptor.open(
            FilePath(path), .writeOnly, options: [.create, .truncate], permissions: [.ownerReadWrite, .groupRead, .otherRead])
        buffer.reserveCapacity(1 << 16)
    }

    /// Appends a line (with its newline); the first write error is kept for ``close()``.
    func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    private func flush() {
        guard failure == nil else { return buffer.removeAll(keepingCapacity: true) }
        do {
            _ = try descriptor.writeAll(buffer)
        } catch {
            failure = error as? Errno ?? .ioError
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and closes; throws the first write error.
    func close() throws {
        flush()
        try descriptor.close()
        if let failure { throw failure }
    }
}
