import BeaconCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends HCI packets to a btsnoop file as they arrive (the scanner's `--record`).
///
/// A new or empty file gets the file header first; an existing file is appended to only when its
/// header has the same datalink. Records are buffered and written when the buffer passes
/// ``flushThreshold`` bytes, on ``flush()`` and on ``close()``. Not thread-safe: use it from one task.
public final class BtsnoopFileWriter {
    /// Buffered bytes are written once there are at least this many.
    public static let flushThreshold = 1 << 16

    /// The path written to.
    public let path: String
    private let encoder: BtsnoopEncoder
    private var descriptor: Int32
    private var pending: [UInt8] = []

    /// Opens (creating if needed) `path` for appending records of `datalink`.
    ///
    /// The descriptor becomes the writer's only once the file is accepted: a refused file is
    /// closed here, once. (A writer whose every property was set before it threw would be
    /// deinitialised, and its deinit would close the number again, which by then may be another
    /// thread's descriptor.)
    public init(path: String, datalink: BtsnoopDatalink = .linuxMonitor) throws(CaptureWriteError) {
        let encoder = BtsnoopEncoder(datalink: datalink)
        let descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CaptureWriteError(.io, detail: "\(path): \(String(cString: strerror(errno)))") }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = systemClose(descriptor)
            throw CaptureWriteError(.io, detail: "\(path): \(reason)")
        }
        if status.st_size > 0 {
            var header = [UInt8](repeating: 0, count: 16)
            let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 16, 0) }
            guard count == 16, header == encoder.fileHeader else {
                _ = systemClose(descriptor)
                throw CaptureWriteError(
                    .incompatibleFile,
                    detail: "\(path) is not a btsnoop file of datalink \(datalink.rawValue)")
            }
        }
        self.path = path
        self.encoder = encoder
        self.descriptor = descriptor
        pending.reserveCapacity(Self.flushThreshold + 1024)
        if status.st_size == 0 { pending.append(contentsOf: encoder.fileHeader) }
    }

    deinit {
        if descriptor >= 0 {
            try? flush()
            _ = systemClose(descriptor)
        }
    }

    /// Appends one H4 packet (type byte then HCI packet).
    public func append(
        h4Packet packet: UnsafeRawBufferPointer, direction: CaptureDirection, timestamp: Timestamp,
        controllerIndex: UInt16 = 0
    ) throws(CaptureWriteError) {
        try encoder.appendRecord(
            h4Packet: packet, direction: direction, timestamp: timestamp,
            controllerIndex: controllerIndex, to: &pending)
        if pending.count >= Self.flushThreshold { try flush() }
    }

    /// Writes the buffered records to the file.
    ///
    /// The loop is its own rather than swift-system's `FileDescriptor.writeAll`, which does not
    /// tell how much it wrote before failing: this one drops only what reached the file, so a flush
    /// after a failure resumes where the file ends instead of writing part of a record twice. (And
    /// BeaconWire builds on BeaconCore alone: `scripts/fuzz.sh` compiles its sources with swiftc.)
    public func flush() throws(CaptureWriteError) {
        guard descriptor >= 0 else { return }
        var offset = 0
        var failure: Int32 = 0
        pending.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        pending.removeFirst(offset)
        if failure != 0 { throw CaptureWriteError(.io, detail: "\(path): \(String(cString: strerror(failure)))") }
    }

    /// Flushes and closes the file; later appends throw.
    public func close() throws(CaptureWriteError) {
        guard descriptor >= 0 else { return }
        defer {
            _ = systemClose(descriptor)
            descriptor = -1
        }
        try flush()
    }
}

private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
