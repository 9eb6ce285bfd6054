import BeaconCore
import FoundationEssentials

/// Reads gateway reports in either format (see ``GatewayReportEncoder`` for the binary layout).
///
/// Any byte sequence is safe to hand it: a report that is not complete and valid is refused
/// whole with a ``GatewayReportError``, before any record is passed on. Binary reports are read
/// without allocating (except a gateway id longer than 15 bytes); JSON ones in place too, by a
/// strict reader of the report's schema, with a few allocations per report and none per record.
public enum GatewayReportDecoder {
    static let headerSize = 19

    /// Decodes `bytes`: `body` gets the header once, then each record in order.
    public static func decode(
        _ bytes: UnsafeRawBufferPointer,
        header: (GatewayReportHeader) -> Void,
        record body: (GatewayRecord) -> Void
    ) throws(GatewayReportError) {
        guard let first = bytes.first else { throw .truncated(expected: headerSize, got: 0) }
        if first == GatewayReportEncoder.magic.0 {
            let view = try binary(bytes)
            header(view.header)
            view.forEachRecord(body)
        } else if first == UInt8(ascii: "{") {
            let report = try GatewayReportJSONReader.read(bytes)
            header(report.header)
            for record in report.records { body(record) }
        } else {
            throw .notAReport
        }
    }

    /// Decodes a whole report into values (tests, tools).
    public static func decode(_ bytes: [UInt8]) throws(GatewayReportError) -> (GatewayReportHeader, [GatewayRecord]) {
        var parsedHeader: GatewayReportHeader?
        var records: [GatewayRecord] = []
        let failure: GatewayReportError? = bytes.withUnsafeBytes { buffer in
            do throws(GatewayReportError) {
                try decode(buffer, header: { parsedHeader = $0 }, record: { records.append($0) })
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        return (parsedHeader!, records)
    }

    // MARK: Binary

    /// Whether `bytes` claims to be a binary report (its first byte; ``binary(_:)`` checks the rest).
    @inline(__always)
    package static func isBinary(_ bytes: UnsafeRawBufferPointer) -> Bool { bytes.first == GatewayReportEncoder.magic.0 }

    /// A binary report (its first byte is the binary magic), checked whole: its records are
    /// then read in place.
    package static func binary(_ bytes: UnsafeRawBufferPointer) throws(GatewayReportError) -> GatewayReportView {
        guard bytes.count >= headerSize else { throw .truncated(expected: headerSize, got: bytes.count) }
        guard bytes[0] == GatewayReportEncoder.magic.0, bytes[1] == GatewayReportEncoder.magic.1 else { throw .notAReport }
        guard bytes[2] == GatewayReportEncoder.version else { throw .unsupportedVersion(Int(bytes[2])) }
        let time = Int64(bitPattern: load(UInt64.self, bytes, 4))
        let cycleMilliseconds = load(UInt32.self, bytes, 12)
        let count = Int(load(UInt16.self, bytes, 16))
        let idLength = Int(bytes[18])
        guard (1...64).contains(idLength) else { throw .invalidField("gateway id of \(idLength) bytes") }
        guard bytes.count >= headerSize + idLength else {
            throw .truncated(expected: headerSize + idLength, got: bytes.count)
        }
        let id = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[headerSize..<headerSize + idLength]), as: UTF8.self)
        guard SiteGateway.isValidID(id) else { throw .invalidField("gateway id '\(id)'") }
        guard cycleMilliseconds > 0 else { throw .invalidField("a cycle length of 0 ms") }
        // Walk the records' kinds to know the expected length before passing anything on.
        var offset = headerSize + idLength
        for _ in 0..<count {
            guard offset < bytes.count else { throw .truncated(expected: offset + 30, got: bytes.count) }
            let kind = bytes[offset] & 0x7F
            guard let beaconKind = BeaconID.Kind(rawValue: kind) else { throw .invalidField("beacon kind \(kind)") }
            offset += recordSize(beaconKind)
        }
        guard offset <= bytes.count else { throw .truncated(expected: offset, got: bytes.count) }
        guard offset == bytes.count else { throw .trailingBytes(bytes.count - offset) }
        let header = GatewayReportHeader(
            gateway: id, time: Timestamp(nanosecondsSinceEpoch: time),
            cycleLength: .milliseconds(Int64(cycleMilliseconds)), recordCount: count)
        return GatewayReportView(header: header, bytes: bytes, recordsStart: headerSize + idLength)
    }

    @inline(__always)
    static func recordSize(_ kind: BeaconID.Kind) -> Int { kind == .eddystoneUID ? 30 : 34 }

    @inline(__always)
    private static func load<T: FixedWidthInteger>(_ type: T.Type, _ bytes: UnsafeRawBufferPointer, _ offset: Int) -> T {
        T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
