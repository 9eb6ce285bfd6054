import BeaconCore
import BeaconWire

/// A source whose packets are also written to a btsnoop file (Linux monitor format, as
/// `btmon -w` writes it), before the pipeline sees them: `source: {hci: hci0, record: FILE}`.
/// What was written is flushed when the source ends.
struct RecordingSource: AdvertisementSource {
    let source: any AdvertisementSource
    let path: String

    /// Checks that `path` can be written (creating or truncating it); throws when it cannot.
    init(_ source: any AdvertisementSource, path: String) throws(CaptureWriteError) {
        self.source = source
        self.path = path
        try BtsnoopFileWriter(path: path).close()
    }

    var name: String { source.name }

    func run(deliver: (borrowing PacketBatch) async throws -> Void) async throws {
        let writer = try BtsnoopFileWriter(path: path)
        defer { try? writer.close() }
        try await source.run { batch in
            try batch.forEachPacket { record, bytes in
                try writer.append(h4Packet: bytes, direction: .received, timestamp: record.timestamp)
            }
            try await deliver(batch)
        }
    }
}
