import BeaconCore
import BeaconWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A source whose packets are also written to a btsnoop file (Linux monitor format, as
/// `btmon -w` writes it), before the pipeline sees them: `source: {hci: hci0, record: FILE}`.
/// What was written is flushed when the source ends.
///
/// With a retention (`retention.recordings`) the file rotates on the packets' time
/// (`RotationSchedule`): every half of the limit it becomes `FILE.1` and a new file starts. A
/// recording found at the start is appended to, its part counted from its first packet's time.
/// A rotation that fails leaves the packets going to the current file and is tried a period later.
struct RecordingSource: AdvertisementSource {
    let source: any AdvertisementSource
    let path: String
    let retention: Duration?

    /// Checks that `path` can be written (creating it, or appending to a recording of the same
    /// format); throws when it cannot.
    init(_ source: any AdvertisementSource, path: String, retention: Duration? = nil) throws(CaptureWriteError) {
        self.source = source
        self.path = path
        self.retention = retention
        try BtsnoopFileWriter(path: path).close()
    }

    var name: String { source.name }

    /// The time of the first packet of the recording at `path`, read from its first 64 KiB;
    /// `nil` when it has none.
    static func firstTime(in path: String) -> Timestamp? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: 1 << 16)
        let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0, let capture = try? CaptureFile(bytes: Array(head.prefix(count))) else { return nil }
        var first: Timestamp?
        capture.forEachItem { item in
            if first == nil, case .record(let record) = item { first = record.timestamp }
        }
        return first
    }

    func run(deliver: (borrowing PacketBatch) async throws -> Void) async throws {
        var writer = try BtsnoopFileWriter(path: path)
        defer { try? writer.close() }
        var rotation = retention.map { RotationSchedule(keeping: $0, partStart: Self.firstTime(in: path)) }
        try await source.run { batch in
            try batch.forEachPacket { record, bytes in
                if rotation?.startsNewPart(at: record.timestamp) == true {
                    // Renamed while open: the packets go on to the old part until the new one is open.
                    try writer.flush()
                    if rename(path, RotationSchedule.olderPart(of: path)) == 0,
                        let next = try? BtsnoopFileWriter(path: path)
                    {
                        try? writer.close()
                        writer = next
                    }
                }
                try writer.append(h4Packet: bytes, direction: .received, timestamp: record.timestamp)
            }
            try await deliver(batch)
        }
    }
}
