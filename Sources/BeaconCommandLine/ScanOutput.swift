import BeaconCore
import BeaconWire
import SystemPackage

/// Where `beacond scan` writes what it hears: each LE advertising report of each batch as a
/// JSON line or CSV row, exactly as `beacond parse` writes them (``CaptureDecoder`` and the
/// ``AdvertisementJSONLinesWriter`` / ``AdvertisementCSVWriter``), flushed to stdout after every
/// batch; with `--record`, every packet also goes to a btsnoop file (Linux monitor datalink,
/// direction "received").
final class ScanOutput {
    private let format: AdvertisementOutputFormat
    private let decoder = CaptureDecoder()
    private let json = AdvertisementJSONLinesWriter()
    private let csv = AdvertisementCSVWriter()
    private let recorder: BtsnoopFileWriter?
    private let controllerIndex: UInt16
    private let buffer = OutputBuffer(capacity: 1 << 16)
    private var summary = CaptureSummary()
    private var recordIndex = 0

    /// Opens the record file (if any) and writes the CSV header (for CSV).
    init(format: AdvertisementOutputFormat, recordPath: String?, controllerIndex: UInt16) throws(CaptureWriteError) {
        self.format = format
        self.controllerIndex = controllerIndex
        recorder = try recordPath.map { path throws(CaptureWriteError) in try BtsnoopFileWriter(path: path) }
        if format == .csv { csv.appendHeader(to: buffer) }
    }

    /// Writes the reports of `batch` (and records its packets).
    func write(_ batch: borrowing PacketBatch) throws {
        try batch.forEachPacket { packet, bytes in
            try recorder?.append(
                h4Packet: bytes, direction: .received, timestamp: packet.timestamp,
                controllerIndex: controllerIndex)
            let record = CaptureRecord(
                index: recordIndex, offset: 0, timestamp: packet.timestamp,
                linkType: packet.linkType, direction: .received,
                controllerIndex: controllerIndex, bytes: bytes)
            recordIndex += 1
            summary.recordsRead += 1
            decoder.decode(record, summary: &summary) { item in
                guard case .advertisement(let advertisement) = item else { return }
                let facts = AdvertisementFacts(data: advertisement.report.data)
                switch format {
                case .csv: csv.append(advertisement, facts: facts, to: buffer)
                case .jsonLines: json.append(advertisement, facts: facts, to: buffer)
                }
            }
        }
        flush()
    }

    /// Flushes stdout and closes the record file.
    func finish() throws {
        flush()
        try recorder?.close()
    }

    /// Closes the record file after a failure. Every batch has been flushed already, so what is
    /// left is at most the CSV header, which a failed scan does not print.
    func abandon() {
        try? recorder?.close()
    }

    /// `N packets, M advertising reports` for the log.
    var summaryLine: String { summary.line }

    /// Writes the buffer to standard output (a failure is dropped: see ``StandardOutput``).
    private func flush() {
        buffer.withUnsafeBytes { _ = try? FileDescriptor.standardOutput.writeAll($0) }
        buffer.removeAll()
    }
}
