import BeaconCore

/// Builds one gateway report — a header and the records of one cycle — in a reused buffer.
///
/// The binary layout, version 1 (all integers little-endian unless said otherwise):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 2 | magic `bs` (0x62 0x73) |
/// | 2 | 1 | version (1) |
/// | 3 | 1 | flags (0; reserved) |
/// | 4 | 8 | cycle end, nanoseconds since the Unix epoch, gateway clock (signed) |
/// | 12 | 4 | cycle length, milliseconds |
/// | 16 | 2 | record count |
/// | 18 | 1 | gateway id length *n* (1–64) |
/// | 19 | *n* | gateway id (ASCII) |
///
/// then each record:
///
/// | size | field |
/// |---|---|
/// | 1 | kind (bits 0–6: 0 iBeacon, 1 AltBeacon, 2 Eddystone-UID) and bit 7: seen this cycle |
/// | 16 | identity bytes 0–15 (UUID / id1 / namespace + instance), big-endian as on air |
/// | 4 | major, minor (id2, id3) big-endian; absent for Eddystone-UID |
/// | 2 | filtered RSSI, 1/100 dBm, signed; -32768 = none |
/// | 2 | the cycle's mean RSSI, 1/100 dBm, signed; -32768 = none |
/// | 2 | distance, cm; 65535 = none |
/// | 2 | distance uncertainty, cm; 65535 = none |
/// | 2 | sightings in the cycle |
/// | 2 | age of the latest sighting at the cycle end, ms; 65535 = 65.535 s or more |
/// | 1 | measured power, dBm, signed; 127 = none |
///
/// 34 bytes per iBeacon or AltBeacon record, 30 per Eddystone-UID record. The JSON format
/// carries the same fields under readable names (see `Docs/Site.md`).
public struct GatewayReportEncoder: Sendable {
    /// The binary layout's version.
    public static let version: UInt8 = 1
    /// The most records one report holds (the count is 16 bits).
    public static let maxRecords = Int(UInt16.max)
    /// The most records a gateway puts in one report before it starts another (a hub refuses
    /// longer ones unless its `hub.maxRecordsPerReport` says otherwise).
    public static let recordsPerReport = 4096
    static let magic: (UInt8, UInt8) = (0x62, 0x73)
    static let countOffset = 16

    /// The sending gateway.
    public let gateway: String
    /// The format written.
    public let format: GatewayReportFormat
    /// The report so far (complete after ``finish()``).
    public private(set) var bytes: [UInt8] = []
    /// Records appended since ``begin(time:cycleLength:)``.
    public private(set) var recordCount = 0
    private var time = Timestamp.epoch

    /// Creates an encoder for reports of `gateway` (an id ``SiteGateway/isValidID(_:)`` accepts).
    public init(gateway: String, format: GatewayReportFormat = .binary) {
        precondition(SiteGateway.isValidID(gateway), "invalid gateway id '\(gateway)'")
        self.gateway = gateway
        self.format = format
        bytes.reserveCapacity(1024)
    }

    /// Whether the report holds ``recordsPerReport`` records: the next goes into another report.
    public var isFull: Bool { recordCount >= Self.recordsPerReport }

    /// Starts a report of the cycle ending at `time` (the gateway's clock), dropping any previous one.
    public mutating func begin(time: Timestamp, cycleLength: Duration) {
        bytes.removeAll(keepingCapacity: true)
        recordCount = 0
        self.time = time
        let cycleMilliseconds = UInt32(clamping: cycleLength.nanoseconds / 1_000_000)
        switch format {
        case .binary:
            bytes.append(Self.magic.0)
            bytes.append(Self.magic.1)
            bytes.append(Self.version)
            bytes.append(0)
            appendLittleEndian(UInt64(bitPattern: time.nanosecondsSinceEpoch))
            appendLittleEndian(cycleMilliseconds)
            appendLittleEndian(UInt16(0))
            bytes.append(UInt8(gateway.utf8.count))
            bytes.append(contentsOf: gateway.utf8)
        case .json:
            bytes.append(contentsOf: #"{"v":1,"gateway":""#.utf8)
            bytes.append(contentsOf: gateway.utf8)
            bytes.append(contentsOf: #"","time":""#.utf8)
            bytes.append(contentsOf: time.rfc3339String.utf8)
            bytes.append(contentsOf: #"","cycleMs":"#.utf8)
            appendDecimal(Int(cycleMilliseconds))
            bytes.append(contentsOf: #","records":["#.utf8)
        }
    }

    /// Appends one record (at most ``maxRecords`` per report; a gateway starts another report at
    /// ``isFull``).
    public mutating func append(_ record: GatewayRecord) {
        precondition(recordCount < Self.maxRecords, "a gateway report holds at most \(Self.maxRecords) records")
        let age = Int(max(0, (time - record.lastSeen).nanoseconds / 1_000_000))
        switch format {
        case .binary:
            bytes.append(record.beacon.kind.rawValue | (record.seen ? 0x80 : 0))
            appendBigEndian(record.beacon.high)
            appendBigEndian(record.beacon.low)
            if record.beacon.kind != .eddystoneUID { appendBigEndian(record.beacon.tail) }
            appendLittleEndian(Self.centidecibels(record.rssi))
            appendLittleEndian(Self.centidecibels(record.meanRSSI))
            appendLittleEndian(Self.centimetres(record.distance))
            appendLittleEndian(Self.centimetres(record.accuracy))
            appendLittleEndian(UInt16(clamping: record.sampleCount))
            appendLittleEndian(UInt16(clamping: age))
            bytes.append(UInt8(bitPattern: record.measuredPower ?? 127))
        case .json:
            if recordCount > 0 { bytes.append(0x2C) }
            var json = JSONWriter()
            json.object { json in
                json.key("beacon")
                record.beacon.writeJSON(to: &json)
                json.key("rssi")
                if let rssi = record.rssi { json.value(rssi, decimals: 2) } else { json.null() }
                json.key("mean")
                if let mean = record.meanRSSI { json.value(mean, decimals: 2) } else { json.null() }
                json.key("distance")
                if let distance = record.distance { json.value(distance, decimals: 2) } else { json.null() }
                json.key("accuracy")
                if let accuracy = record.accuracy { json.value(accuracy, decimals: 2) } else { json.null() }
                json.member("samples", record.sampleCount)
                json.member("seen", record.seen)
                json.member("ageMs", min(age, 65_535))
                json.member("measuredPower", record.measuredPower.map(Int.init))
            }
            bytes.append(contentsOf: json.bytes)
        }
        recordCount += 1
    }

    /// Completes the report; ``bytes`` is then ready to send.
    public mutating func finish() {
        switch format {
        case .binary:
            let count = UInt16(recordCount)
            bytes[Self.countOffset] = UInt8(truncatingIfNeeded: count)
            bytes[Self.countOffset + 1] = UInt8(truncatingIfNeeded: count >> 8)
        case .json:
            bytes.append(contentsOf: "]}".utf8)
        }
    }

    static func centidecibels(_ dBm: Double?) -> UInt16 {
        guard let dBm, dBm.isFinite else { return UInt16(bitPattern: .min) }
        return UInt16(bitPattern: Int16(max(-32_767, min(32_767, (dBm * 100).rounded()))))
    }

    static func centimetres(_ metres: Double?) -> UInt16 {
        guard let metres, metres.isFinite, metres >= 0 else { return .max }
        return UInt16(min(65_534, (metres * 100).rounded()))
    }

    private mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        var v = value.littleEndian
        withUnsafeBytes(of: &v) { bytes.append(contentsOf: $0) }
    }

    private mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        var v = value.bigEndian
        withUnsafeBytes(of: &v) { bytes.append(contentsOf: $0) }
    }

    private mutating func appendDecimal(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }
}
