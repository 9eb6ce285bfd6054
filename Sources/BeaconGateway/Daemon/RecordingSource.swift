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
/// (``RotationSchedule``): every half of the limit it becomes `FILE.1` and a new file starts.
struct RecordingSource: AdvertisementSource {
    let source: any AdvertisementSource
    let path: String
    let retention: Duration?

    /// Checks that `path` can be written (creating it, or appending to a recording of the same
    /// format); throws when it cannot. With a retention, a recording already there becomes
    /// `FILE.1` first (its packets' age is not known until read).
    init(_ source: any AdvertisementSource, path: String, retention: Duration? = nil) throws(CaptureWriteError) {
        self.source = source
        self.path = path
        self.retention = retention
        if retention != nil { try Self.keepOlderPart(path) }
        try BtsnoopFileWriter(path: path).close()
    }

    /// Moves the recording at `path`, when there is one, over its older part.
    static func keepOlderPart(_ path: String) throws(CaptureWriteError) {
        let older = RotationSchedule.olderPart(of: path)
        guard rename(path, older) == 0 || errno == ENOENT else {
            throw CaptureWriteError(.io, detail: "\(path): cannot rotate it to \(older): \(String(cString: strerror(errno)))")
        }
    }

    var name: String { source.name }

    func run(deliver: (borrowing PacketBatch) async throws -> Void) async throws {
        var writer = try BtsnoopFileWriter(path: path)
        defer { try? writer.close() }
        var rotation = retention.map(RotationSchedule.init(keeping:))
        try await source.run { batch in
            try batch.forEachPacket { record, bytes in
                if rotation?.startsNewPart(at: record.timestamp) == true {
                    try writer.close()
                    try Self.keepOlderPart(path)
                    writer = try BtsnoopFileWriter(path: path)
                }
                try writer.append(h4Packet: bytes, direction: .received, timestamp: record.timestamp)
            }
            try await deliver(batch)
        }
    }
}
