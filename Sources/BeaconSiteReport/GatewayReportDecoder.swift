import BeaconCore
import FoundationEssentials

/// Reads gateway reports in either format (see ``GatewayReportEncoder`` for the binary layout).
///
/// Any byte sequence is safe to hand it: a report that is not complete and valid is refused
/// whole with a ``GatewayReportError``, before any record is passed on. Binary reports are read
/// without allocating (except a gateway id longer than 15 bytes); JSON ones through
/// `JSONDecoder`.
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
            let parsed = try validateBinary(bytes)
            header(parsed)
            forEachBinaryRecord(bytes, header: parsed, body)
        } else if first == UInt8(ascii: "{") {
            let report = try decodeJSON(bytes)
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

    private static func validateBinary(_ bytes: UnsafeRawBufferPointer) throws(GatewayReportError) -> GatewayReportHeader {
        guard bytes.count >= headerSize else { throw .truncated(expected: headerSize, got: bytes.count) }
        guard bytes[1] == GatewayReportEncoder.magic.1 else { throw .notAReport }
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
        return GatewayReportHeader(
            gateway: id, time: Timestamp(nanosecondsSinceEpoch: time),
            cycleLength: .milliseconds(Int64(cycleMilliseconds)), recordCount: count)
    }

    @inline(__always)
    static func recordSize(_ kind: BeaconID.Kind) -> Int { kind == .eddystoneUID ? 30 : 34 }

    private static func forEachBinaryRecord(
        _ bytes: UnsafeRawBufferPointer, header: GatewayReportHeader, _ body: (GatewayRecord) -> Void
    ) {
        var offset = headerSize + header.gateway.utf8.count
        for _ in 0..<header.recordCount {
            let kindByte = bytes[offset]
            let kind = BeaconID.Kind(rawValue: kindByte & 0x7F)!
            let high = UInt64(bigEndian: load(UInt64.self, bytes, offset + 1))
            let low = UInt64(bigEndian: load(UInt64.self, bytes, offset + 9))
            var cursor = offset + 17
            let beacon: BeaconID
            switch kind {
            case .iBeacon, .altBeacon:
                let tail = UInt32(bigEndian: load(UInt32.self, bytes, cursor))
                cursor += 4
                beacon =
                    kind == .iBeacon
                    ? .iBeacon(uuidHigh: high, uuidLow: low, major: UInt16(tail >> 16), minor: UInt16(truncatingIfNeeded: tail))
                    : .altBeacon(id1High: high, id1Low: low, id2: UInt16(tail >> 16), id3: UInt16(truncatingIfNeeded: tail))
            case .eddystoneUID:
                beacon = .eddystoneUID(
                    namespaceHigh: UInt16(truncatingIfNeeded: high >> 48),
                    namespaceLow: high << 16 | low >> 48, instance: low & 0xFFFF_FFFF_FFFF)
            }
            let rssi = Int16(bitPattern: load(UInt16.self, bytes, cursor))
            let mean = Int16(bitPattern: load(UInt16.self, bytes, cursor + 2))
            let distance = load(UInt16.self, bytes, cursor + 4)
            let accuracy = load(UInt16.self, bytes, cursor + 6)
            let samples = load(UInt16.self, bytes, cursor + 8)
            let age = load(UInt16.self, bytes, cursor + 10)
            let power = Int8(bitPattern: bytes[cursor + 12])
            body(
                GatewayRecord(
                    beacon: beacon, rssi: rssi == .min ? nil : Double(rssi) / 100,
                    meanRSSI: mean == .min ? nil : Double(mean) / 100, distance: distance == .max ? nil : Double(distance) / 100,
                    accuracy: accuracy == .max ? nil : Double(accuracy) / 100,
                    sampleCount: Int(samples), seen: kindByte & 0x80 != 0,
                    lastSeen: header.time - .milliseconds(Int64(age)),
                    measuredPower: power == 127 ? nil : power))
            offset = cursor + 13
        }
    }

    @inline(__always)
    private static func load<T: FixedWidthInteger>(_ type: T.Type, _ bytes: UnsafeRawBufferPointer, _ offset: Int) -> T {
        T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    // MARK: JSON

    private struct JSONReport: Decodable {
        var v: Int
        var gateway: String
        var time: String
        var cycleMs: Int
        var records: [JSONRecord]
    }

    /// The members of an identity object; turned into one by `BeaconID(jsonObject:)`, its one reader.
    private struct JSONBeacon: Decodable {
        var type: String?
        var uuid: String?
        var major: Int?
        var minor: Int?
        var namespace: String?
        var instance: String?

        func identity() throws(BeaconIDJSONError) -> BeaconID {
            var object: [String: Any] = [:]
            if let type { object["type"] = type }
            if let uuid { object["uuid"] = uuid }
            if let major { object["major"] = major }
            if let minor { object["minor"] = minor }
            if let namespace { object["namespace"] = namespace }
            if let instance { object["instance"] = instance }
            return try BeaconID(jsonObject: object)
        }
    }

    private struct JSONRecord: Decodable {
        var beacon: JSONBeacon
        var rssi: Double?
        var mean: Double?
        var distance: Double?
        var accuracy: Double?
        var samples: Int
        var seen: Bool
        var ageMs: Int
        var measuredPower: Int?
    }

    private static func decodeJSON(_ bytes: UnsafeRawBufferPointer) throws(GatewayReportError) -> (
        header: GatewayReportHeader, records: [GatewayRecord]
    ) {
        let report: JSONReport
        do {
            report = try JSONDecoder().decode(JSONReport.self, from: Data(bytes))
        } catch {
            throw .invalidField("JSON: \(error)")
        }
        guard report.v == 1 else { throw .unsupportedVersion(report.v) }
        guard SiteGateway.isValidID(report.gateway) else { throw .invalidField("gateway id '\(report.gateway)'") }
        guard let time = Timestamp(rfc3339: report.time) else { throw .invalidField("time '\(report.time)'") }
        guard report.cycleMs > 0 else { throw .invalidField("a cycle length of \(report.cycleMs) ms") }
        guard report.records.count <= GatewayReportEncoder.maxRecords else {
            throw .invalidField("\(report.records.count) records")
        }
        var records: [GatewayRecord] = []
        records.reserveCapacity(report.records.count)
        for r in report.records {
            guard (0...65_535).contains(r.samples), (0...65_535).contains(r.ageMs) else {
                throw .invalidField("samples \(r.samples) or age \(r.ageMs) ms out of range")
            }
            guard r.measuredPower.map({ (-128...126).contains($0) }) ?? true else {
                throw .invalidField("measured power \(r.measuredPower!)")
            }
            let beacon: BeaconID
            do {
                beacon = try r.beacon.identity()
            } catch {
                throw .invalidField("beacon: \(error)")
            }
            records.append(
                GatewayRecord(
                    beacon: beacon, rssi: r.rssi, meanRSSI: r.mean, distance: r.distance, accuracy: r.accuracy,
                    sampleCount: r.samples,
                    seen: r.seen, lastSeen: time - .milliseconds(Int64(r.ageMs)), measuredPower: r.measuredPower.map { Int8($0) })
            )
        }
        return (
            GatewayReportHeader(
                gateway: report.gateway, time: time, cycleLength: .milliseconds(Int64(report.cycleMs)),
                recordCount: records.count), records
        )
    }
}
