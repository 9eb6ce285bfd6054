import BeaconCore
import BeaconSite
import BeaconSiteReport
import Testing

@Suite("Gateway reports: the wire format")
struct GatewayReportCodecTests {
    static let time = Timestamp(nanosecondsSinceEpoch: 1_735_722_000_000_000_000)
    static let ibeacon = BeaconID.iBeacon(
        uuidHigh: 0x5A4B_CFCE_174E_4BAC, uuidLow: 0xA814_092E_77F6_B7E5, major: 1, minor: 0x0203)
    static let altbeacon = BeaconID.altBeacon(id1High: 1, id1Low: 2, id2: 3, id3: 4)
    static let eddystone = BeaconID.eddystoneUID(namespaceHigh: 0x0102, namespaceLow: 0x0304_0506_0708_090A, instance: 0xAA)

    static var records: [GatewayRecord] {
        [
            GatewayRecord(
                beacon: ibeacon, rssi: -67.25, meanRSSI: -64.5, distance: 2.31, accuracy: 0.8, sampleCount: 9, seen: true,
                lastSeen: time - .milliseconds(120), measuredPower: -59),
            GatewayRecord(
                beacon: altbeacon, rssi: nil, distance: nil, accuracy: nil, sampleCount: 0, seen: false,
                lastSeen: time - .seconds(2)),
            GatewayRecord(
                beacon: eddystone, rssi: -90.5, meanRSSI: -91, distance: 18.07, accuracy: 6.5, sampleCount: 1, seen: true,
                lastSeen: time, measuredPower: -41),
        ]
    }

    static func encode(_ format: GatewayReportFormat, _ records: [GatewayRecord] = records) -> [UInt8] {
        var encoder = GatewayReportEncoder(gateway: "hall-nw", format: format)
        encoder.begin(time: time, cycleLength: .seconds(1))
        for record in records { encoder.append(record) }
        encoder.finish()
        return encoder.bytes
    }

    @Test("the binary header is laid out as documented", .tags(.wire))
    func binaryHeader() {
        let bytes = Self.encode(.binary, [])
        #expect(bytes.count == 19 + 7)
        #expect(Array(bytes[0..<4]) == [0x62, 0x73, 1, 0])
        // 1_735_722_000_000_000_000 = 0x1816_85F6_76D4_A000, little-endian.
        #expect(Array(bytes[4..<12]) == [0x00, 0xA0, 0xD4, 0x76, 0xF6, 0x85, 0x16, 0x18])
        #expect(Array(bytes[12..<16]) == [0xE8, 0x03, 0, 0]) // 1000 ms
        #expect(Array(bytes[16..<18]) == [0, 0])
        #expect(bytes[18] == 7)
        #expect(String(decoding: bytes[19...], as: UTF8.self) == "hall-nw")
    }

    @Test("an iBeacon record is 34 bytes laid out as documented; Eddystone-UID 30", .tags(.wire))
    func recordLayout() {
        let one = Self.encode(.binary, [Self.records[0]])
        let record = Array(one[26...])
        #expect(record.count == 34)
        #expect(record[0] == 0x80) // iBeacon, seen
        #expect(Array(record[1..<5]) == [0x5A, 0x4B, 0xCF, 0xCE])
        #expect(Array(record[17..<21]) == [0x00, 0x01, 0x02, 0x03]) // major 1, minor 0x0203
        #expect(Array(record[21..<23]) == [0xBB, 0xE5]) // -6725 = 0xE5BB
        #expect(Array(record[23..<25]) == [0xCE, 0xE6]) // -6450 = 0xE6CE
        #expect(Array(record[25..<27]) == [0xE7, 0x00]) // 231 cm
        #expect(Array(record[27..<29]) == [0x50, 0x00]) // 80 cm
        #expect(Array(record[29..<31]) == [9, 0])
        #expect(Array(record[31..<33]) == [120, 0]) // 120 ms old
        #expect(record[33] == 0xC5) // -59
        let eddystone = Self.encode(.binary, [Self.records[2]])
        #expect(eddystone.count - 26 == 30)
        #expect(eddystone[26] == 0x82)
    }

    @Test("both formats carry every field through", arguments: GatewayReportFormat.allCases)
    func roundTrip(format: GatewayReportFormat) throws {
        let (header, records) = try GatewayReportDecoder.decode(Self.encode(format))
        #expect(header == GatewayReportHeader(gateway: "hall-nw", time: Self.time, cycleLength: .seconds(1), recordCount: 3))
        #expect(records == Self.records)
    }

    @Test("the binary format is less than a fifth of the JSON one")
    func compactness() {
        let many = (0..<100).map { i in
            GatewayRecord(
                beacon: .iBeacon(uuidHigh: 1, uuidLow: 2, major: 3, minor: UInt16(i)), rssi: -70.5, meanRSSI: -71, distance: 4.2,
                accuracy: 1.1, sampleCount: 8, seen: true, lastSeen: Self.time - .milliseconds(90), measuredPower: -59)
        }
        let binary = Self.encode(.binary, many).count
        let json = Self.encode(.json, many).count
        #expect(binary == 26 + 100 * 34)
        #expect(binary * 5 < json)
    }

    @Test("a report that is not whole and valid is refused, naming what is wrong")
    func refusals() {
        let good = Self.encode(.binary)
        func refusal(_ bytes: [UInt8]) -> GatewayReportError? {
            do {
                _ = try GatewayReportDecoder.decode(bytes)
                return nil
            } catch { return error }
        }
        #expect(refusal(Array(good.dropLast())) == .truncated(expected: good.count, got: good.count - 1))
        #expect(refusal(good + [0]) == .trailingBytes(1))
        #expect(refusal([]) == .truncated(expected: 19, got: 0))
        #expect(refusal(Array("hello".utf8)) == .notAReport)
        var version = good
        version[2] = 2
        #expect(refusal(version) == .unsupportedVersion(2))
        var kind = good
        kind[26] = 0x85
        #expect(refusal(kind) == .invalidField("beacon kind 5"))
        var id = good
        id[20] = UInt8(ascii: "/")
        #expect(refusal(id) == .invalidField("gateway id 'h/ll-nw'"))
        #expect(
            refusal(Array(#"{"v":2,"gateway":"a","time":"2025-01-01T09:00:00Z","cycleMs":1000,"records":[]}"#.utf8))
                == .unsupportedVersion(2))
        if case .invalidField = refusal(Array(#"{"v":1}"#.utf8)) {
        } else {
            Issue.record("a JSON report without fields was taken")
        }
    }

    @Test("no prefix, bit flip or random byte string crashes the decoder")
    func robustness() {
        let good = Self.encode(.binary)
        var accepted = 0
        for length in 0...good.count {
            if (try? GatewayReportDecoder.decode(Array(good.prefix(length)))) != nil { accepted += 1 }
        }
        #expect(accepted == 1) // only the whole report
        var random = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            var bytes = good
            let flips = Int(random.next() % 4) + 1
            for _ in 0..<flips {
                let i = Int(random.next() % UInt64(bytes.count))
                bytes[i] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            _ = try? GatewayReportDecoder.decode(bytes)
            let noise = (0..<Int(random.next() % 80)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = try? GatewayReportDecoder.decode([0x62, 0x73, 1, 0] + noise)
        }
    }

    @Test("a beacon always falls in the same bucket, and buckets share the beacons evenly")
    func buckets() {
        let topics = SiteTopics(site: "museum", bucketCount: 16)
        var counts = Array(repeating: 0, count: 16)
        for minor in 0..<16_000 {
            let id = BeaconID.iBeacon(
                uuidHigh: 0x5A4B_CFCE_174E_4BAC, uuidLow: 0xA814_092E_77F6_B7E5, major: 1, minor: UInt16(minor))
            let bucket = topics.bucket(of: id)
            #expect(bucket == topics.bucket(of: id))
            counts[bucket] += 1
        }
        #expect(counts.allSatisfy { (850...1150).contains($0) }, "\(counts)")
        #expect(topics.recordsTopic(bucket: 3, gateway: "hall-nw") == "beacond/site/museum/records/3/hall-nw")
        #expect(topics.subscription(bucket: 3) == "beacond/site/museum/records/3/+")
    }
}

extension Tag {
    @Tag static var wire: Self
}

extension GatewayReportCodecTests {
    @Test(
        "an enrolled device crosses both formats as itself; its binary record is 34 bytes holding its name",
        arguments: GatewayReportFormat.allCases)
    func deviceRecord(format: GatewayReportFormat) throws {
        let ada = try #require(BeaconID.device(named: "ada-phone"))
        let record = GatewayRecord(
            beacon: ada, rssi: -61.5, meanRSSI: -62, distance: 1.8, accuracy: 0.7, sampleCount: 4, seen: true,
            lastSeen: Self.time - .milliseconds(300), measuredPower: -62)
        let bytes = Self.encode(format, [record])
        if format == .binary {
            #expect(bytes.count - 26 == 34)
            #expect(bytes[26] == 0x83)
            #expect(String(decoding: bytes[27..<36], as: UTF8.self) == "ada-phone")
        }
        let (_, records) = try GatewayReportDecoder.decode(bytes)
        #expect(records == [record])
    }
}
