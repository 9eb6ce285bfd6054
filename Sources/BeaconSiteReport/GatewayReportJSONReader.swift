import BeaconCore

/// Reads the JSON form of a gateway report (what ``GatewayReportEncoder`` writes in `.json`)
/// straight from its bytes: no allocation per record, one for the report's records.
///
/// It takes what `JSONDecoder` took for the report's schema — members in any order, any
/// whitespace, escapes in strings, numbers in any JSON form (an integer member may be written
/// `1.0` or `1e2`), `null` for an absent optional member, unknown members (skipped), a repeated
/// member (the first counts) — and gives the same records. It is stricter where `JSONDecoder`
/// was lax: a trailing comma, or an unknown member holding a malformed number or string, is
/// refused. Errors come in `JSONDecoder`'s order: the JSON first, then the version, the
/// header's fields, the record count, and the first record with an impossible value.
enum GatewayReportJSONReader {
    private static let reportMembers = JSONCursor.Names(["v", "gateway", "time", "cycleMs", "records"])
    private static let recordMembers = JSONCursor.Names([
        "beacon", "rssi", "mean", "distance", "accuracy", "samples", "seen", "ageMs", "measuredPower",
    ])

    /// The report's header and records.
    static func read(_ bytes: UnsafeRawBufferPointer) throws(GatewayReportError) -> (
        header: GatewayReportHeader, records: [GatewayRecord]
    ) {
        var cursor = JSONCursor(bytes)
        var version: Int?
        var gatewayText: JSONCursor.Text?
        var timeText: JSONCursor.Text?
        var cycleMilliseconds: Int?
        var records: [GatewayRecord]?
        var ages: [UInt16] = []
        var problem: GatewayReportError?
        try cursor.forEachMember { (cursor: inout JSONCursor, key) throws(GatewayReportError) in
            switch cursor.index(of: key, in: reportMembers) {
            case 0 where version == nil: version = try cursor.integer()
            case 1 where gatewayText == nil: gatewayText = try cursor.text()
            case 2 where timeText == nil: timeText = try cursor.text()
            case 3 where cycleMilliseconds == nil: cycleMilliseconds = try cursor.integer()
            case 4 where records == nil:
                var list: [GatewayRecord] = []
                list.reserveCapacity(min(bytes.count / 128, GatewayReportEncoder.recordsPerReport))
                ages.reserveCapacity(list.capacity)
                try cursor.expect(UInt8(ascii: "["))
                if cursor.peek() == UInt8(ascii: "]") {
                    try cursor.expect(UInt8(ascii: "]"))
                } else {
                    repeat {
                        try readRecord(&cursor, into: &list, ages: &ages, problem: &problem)
                    } while try cursor.next(close: UInt8(ascii: "]"))
                }
                records = list
            default: try cursor.skipValue(depth: 1)
            }
        }
        guard cursor.peek() == nil else { throw cursor.failure("bytes after the report") }
        guard let version else { throw .invalidField(#"JSON: no "v""#) }
        guard let gatewayText else { throw .invalidField(#"JSON: no "gateway""#) }
        guard let timeText else { throw .invalidField(#"JSON: no "time""#) }
        guard let cycleMilliseconds else { throw .invalidField(#"JSON: no "cycleMs""#) }
        guard var records else { throw .invalidField(#"JSON: no "records""#) }

        guard version == 1 else { throw .unsupportedVersion(version) }
        let gateway = cursor.string(gatewayText)
        guard SiteGateway.isValidID(gateway) else { throw .invalidField("gateway id '\(gateway)'") }
        let timeString = cursor.string(timeText)
        guard let time = Timestamp(rfc3339: timeString) else { throw .invalidField("time '\(timeString)'") }
        guard cycleMilliseconds > 0 else { throw .invalidField("a cycle length of \(cycleMilliseconds) ms") }
        guard records.count <= GatewayReportEncoder.maxRecords else { throw .invalidField("\(records.count) records") }
        if let problem { throw problem }
        // `time - .milliseconds(age)`, without its 128-bit arithmetic (years 1900–2200: no overflow).
        let nanoseconds = time.nanosecondsSinceEpoch
        for i in records.indices {
            records[i].lastSeen = Timestamp(nanosecondsSinceEpoch: nanoseconds - Int64(ages[i]) * 1_000_000)
        }
        return (
            GatewayReportHeader(
                gateway: gateway, time: time, cycleLength: .milliseconds(Int64(cycleMilliseconds)),
                recordCount: records.count),
            records
        )
    }

    /// Reads one record object into `records` (its age into `ages`, its time not being known
    /// yet); the first impossible value of any record goes to `problem`.
    private static func readRecord(
        _ cursor: inout JSONCursor, into records: inout [GatewayRecord], ages: inout [UInt16],
        problem: inout GatewayReportError?
    ) throws(GatewayReportError) {
        var beacon: Result<BeaconID, BeaconIDJSONError>?
        var rssi: Double??
        var mean: Double??
        var distance: Double??
        var accuracy: Double??
        var samples: Int?
        var seen: Bool?
        var age: Int?
        var power: Int??
        try cursor.forEachMember { (cursor: inout JSONCursor, key) throws(GatewayReportError) in
            switch cursor.index(of: key, in: recordMembers) {
            case 0 where beacon == nil: beacon = try BeaconMembers.read(&cursor)
            case 1 where rssi == nil: rssi = try cursor.optionalDouble()
            case 2 where mean == nil: mean = try cursor.optionalDouble()
            case 3 where distance == nil: distance = try cursor.optionalDouble()
            case 4 where accuracy == nil: accuracy = try cursor.optionalDouble()
            case 5 where samples == nil: samples = try cursor.integer()
            case 6 where seen == nil: seen = try cursor.bool()
            case 7 where age == nil: age = try cursor.integer()
            case 8 where power == nil: power = try cursor.takeNull() ? .some(nil) : try cursor.integer()
            default: try cursor.skipValue(depth: 3)
            }
        }
        guard let beacon else { throw cursor.failure(#"a record without "beacon""#) }
        guard let samples else { throw cursor.failure(#"a record without "samples""#) }
        guard let seen else { throw cursor.failure(#"a record without "seen""#) }
        guard let age else { throw cursor.failure(#"a record without "ageMs""#) }
        let measuredPower = power ?? nil
        if problem == nil {
            if !(0...65_535).contains(samples) || !(0...65_535).contains(age) {
                problem = .invalidField("samples \(samples) or age \(age) ms out of range")
            } else if let measuredPower, !(-128...126).contains(measuredPower) {
                problem = .invalidField("measured power \(measuredPower)")
            } else if case .failure(let error) = beacon {
                problem = .invalidField("beacon: \(error)")
            }
        }
        let id: BeaconID
        switch beacon {
        case .success(let value): id = value
        case .failure: id = .iBeacon(uuidHigh: 0, uuidLow: 0, major: 0, minor: 0) // refused anyway
        }
        records.append(
            GatewayRecord(
                beacon: id, rssi: rssi ?? nil, meanRSSI: mean ?? nil, distance: distance ?? nil,
                accuracy: accuracy ?? nil, sampleCount: samples, seen: seen, lastSeen: .epoch,
                measuredPower: measuredPower.map { Int8(truncatingIfNeeded: $0) }))
        ages.append(UInt16(truncatingIfNeeded: age))
    }
}

extension JSONCursor {
    /// Member names as they are compared: their bytes, up to 16, in two zero-padded words.
    struct Names {
        let names: [StaticString]
        let words: [(UInt64, UInt64)]

        init(_ names: [StaticString]) {
            self.names = names
            words = names.map { name in
                let bytes = UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
                return JSONCursor.words(bytes, 0, bytes.count)
            }
        }
    }

    /// `count` bytes (at most 16) from `start` in two zero-padded little-endian words.
    @inline(__always)
    static func words(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        if start + 16 <= bytes.count {
            let first = bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self).littleEndian
            let second = bytes.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self).littleEndian
            if count >= 8 {
                words = (first, count == 16 ? second : second & (1 << (8 * UInt64(count - 8)) - 1))
            } else {
                words = (first & (1 << (8 * UInt64(count)) - 1), 0)
            }
        } else {
            for i in 0..<count {
                if i < 8 {
                    words.0 |= UInt64(bytes[start + i]) << (8 * UInt64(i))
                } else {
                    words.1 |= UInt64(bytes[start + i]) << (8 * UInt64(i - 8))
                }
            }
        }
        return words
    }

    /// Which of `names` a key is (`nil`: none).
    @inline(__always)
    func index(of key: Text, in names: Names) -> Int? {
        let count = key.end - key.start
        if key.escaped {
            for i in names.names.indices where equals(key, names.names[i]) { return i }
            return nil
        }
        // A name holds neither a zero byte nor more than 16 bytes, so padded words tell them apart.
        guard count <= 16 else { return nil }
        let words = Self.words(bytes, key.start, count)
        for i in names.words.indices where names.words[i] == words { return i }
        return nil
    }

    /// Takes a number as a double, or `null` (`nil`).
    @inline(__always)
    mutating func optionalDouble() throws(GatewayReportError) -> Double? {
        try takeNull() ? nil : try double()
    }
}
