import BeaconCore
import Foundation
import Testing

@testable import BeaconWire

/// A copy of what the decoder reported for one advertisement (reports are borrowed views).
struct SeenReport {
    var frame: Int
    var reportIndex: Int
    var nanoseconds: Int64
    var kind: AdvertisingReportKind
    var eventType: UInt16
    var addressType: AddressType
    var address: BluetoothAddress
    var rssi: Int8?
    var txPower: Int8?
    var channel: UInt8?
    var crcOK: Bool?
    var data: [UInt8]
    var iBeacon: IBeaconFrame?
    var localName: [UInt8]?

    init(_ advertisement: DecodedAdvertisement) {
        let report = advertisement.report
        let facts = AdvertisementFacts(data: report.data)
        frame = advertisement.recordIndex + 1
        reportIndex = advertisement.reportIndex
        nanoseconds = advertisement.timestamp.nanosecondsSinceEpoch
        kind = report.kind
        eventType = report.eventType
        addressType = report.addressType
        address = report.address
        rssi = report.rssi
        txPower = report.txPower
        channel = report.channel
        crcOK = advertisement.crcOK
        data = Array(report.data)
        iBeacon = facts.iBeacon
        localName = facts.localName.map { Array($0.bytes) }
    }

    /// Decodes every advertisement of fixture `name`.
    static func decode(_ name: String) throws -> (reports: [SeenReport], errors: [CaptureDecodeError], summary: CaptureSummary) {
        let file = try CaptureFile(path: CaptureFixtures.path(name))
        var reports: [SeenReport] = []
        var errors: [CaptureDecodeError] = []
        let summary = CaptureDecoder().decode(file) { item in
            switch item {
            case .advertisement(let advertisement): reports.append(SeenReport(advertisement))
            case .error(let error): errors.append(error)
            }
        }
        return (reports, errors, summary)
    }
}

@Suite("CaptureDecoder against the tshark oracle and the synthetic truth")
struct CaptureDecoderTests {
    /// Where the oracle departs from the specification (see Fixtures/Captures/PROVENANCE.md):
    /// (capture, frame) → the value the specification gives.
    static let crcOverrides: [String: [Int: Bool]] = [
        // tshark stopped on a malformed PDU before its CRC check; an independent CRC says bad.
        "bostonmesh_hackrf_take2_ble_all_adv.pcap": [137: false, 190: false, 204: false]
    ]
    static let addressTypeOverrides: [String: [Int: AddressType]] = [
        // SCAN_REQ header 0x43: RxAdd 0 describes AdvA (Core Vol 6 Part B §2.3.2.1); Apple OUI dc:a9:04.
        "mitll_anechoic_nrf52_0deg.pcapng": [190: .public]
    ]

    /// The RF channel of a channel index (Core Vol 6 Part B §1.4.1), written apart from the code under test.
    static func rfChannel(ofIndex index: UInt8) -> UInt8 {
        switch index {
        case 37: 0
        case 38: 12
        case 39: 39
        case 0...10: index + 1
        default: index + 2
        }
    }

    /// The oracle's `local_name` with its `\xNN` escapes undone.
    static func unescaped(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\\"), i + 3 < bytes.count, bytes[i + 1] == UInt8(ascii: "x"),
                let value = UInt8(String(decoding: bytes[(i + 2)...(i + 3)], as: UTF8.self), radix: 16)
            {
                out.append(value)
                i += 4
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    @Test("every oracle row is reported with the same fields, and nothing else", arguments: CaptureFixtures.oracleCaptures)
    func agreesWithOracle(capture: String) throws {
        let oracle = try OracleRow.load(capture + ".tshark.csv")
        let (reports, errors, summary) = try SeenReport.decode(capture)
        #expect(errors.isEmpty, "\(errors.prefix(3))")
        #expect(reports.count == oracle.count)
        #expect(summary.advertisingReports == oracle.count)
        var byFrame: [Int: SeenReport] = [:]
        for report in reports { byFrame[report.frame * 100 + report.reportIndex] = report }
        var checked = 0
        for row in oracle {
            let frame = Int(row["frame"])!
            guard let seen = byFrame[frame * 100 + Int(row["report_idx"].isEmpty ? "0" : row["report_idx"])!] else {
                Issue.record("\(capture) frame \(frame): not reported")
                continue
            }
            let place = "\(capture) frame \(frame)"
            let time = row["time_epoch"].split(separator: ".")
            let micros = Int64(time[0])! * 1_000_000 + Int64(time[1])!
            #expect(seen.nanoseconds / 1_000 == micros, "\(place) time")
            #expect(seen.address.description == row["address"], "\(place) address")
            let oracleType = AddressType(rawValue: UInt8(row["addr_type"].dropFirst(2), radix: 16)!)!
            #expect(seen.addressType == Self.addressTypeOverrides[capture]?[frame] ?? oracleType, "\(place) address type")
            let eventText = row["source"] == "ll_adv" ? row["pdu_type"] : row["event_type"]
            #expect(seen.eventType == UInt16(eventText.dropFirst(2), radix: 16)!, "\(place) event type")
            let rssi = row["rssi"]
            #expect(seen.rssi == (rssi.isEmpty || rssi == "127" ? nil : Int8(rssi)!), "\(place) rssi")
            #expect(OracleRowMatch.adHex(row, seen.data), "\(place) data \(tsharkDelimitedHex(seen.data)) vs \(row["ad_hex"])")
            if row["ibeacon_uuid"].isEmpty {
                #expect(seen.iBeacon == nil, "\(place) not an iBeacon")
            } else {
                let beacon = try #require(seen.iBeacon, "\(place) iBeacon")
                #expect(beacon.uuid.uuidString.lowercased() == row["ibeacon_uuid"], "\(place) uuid")
                #expect(beacon.major == UInt16(row["ibeacon_major"])!)
                #expect(beacon.minor == UInt16(row["ibeacon_minor"])!)
                #expect(beacon.measuredPower == Int8(row["ibeacon_measured_power"])!)
            }
            if !row["local_name"].isEmpty, !row["ad_hex"].contains("??") {
                #expect(seen.localName == Self.unescaped(row["local_name"]), "\(place) local name")
            }
            switch row["source"] {
            case "ll_adv":
                #expect(seen.kind == .linkLayer)
                let channel = try #require(seen.channel, "\(place) channel")
                let expectedChannel = UInt8(row["channel"])!
                if capture.hasSuffix(".pcapng") {
                    #expect(channel == expectedChannel, "\(place) channel index")
                } else {
                    #expect(Self.rfChannel(ofIndex: channel) == expectedChannel, "\(place) RF channel")
                }
                #expect(seen.crcOK == Self.crcOverrides[capture]?[frame] ?? (row["crc_ok"] == "1"), "\(place) crc")
            case "hci_le_ext_adv_report":
                #expect(seen.kind == .extended)
                #expect(seen.txPower == (row["tx_power_ext"] == "127" ? nil : Int8(row["tx_power_ext"])), "\(place) tx power")
            default:
                #expect(seen.kind == .legacy)
                #expect(seen.crcOK == nil)
            }
            checked += 1
        }
        #expect(checked == oracle.count)
    }

    /// The synthetic captures' truth: counts and sums over every report.
    @Test(
        "synthetic btsnoop files match their truth sums",
        arguments: [
            ("hci_2k_seed1.btsnoop", "hci_2k_seed1.truth.json"),
            ("hci_2k_seed1.monitor.btsnoop", "hci_2k_seed1.truth.json"),
            ("hci_2k_seed1_ext.btsnoop", "hci_2k_seed1_ext.truth.json"),
        ])
    func syntheticTruth(capture: String, truthFile: String) throws {
        let truth = try JSONSerialization.jsonObject(with: Data(try CaptureFixtures.bytes(truthFile))) as! [String: Any]
        let (reports, errors, summary) = try SeenReport.decode(capture)
        #expect(errors.isEmpty)
        #expect(summary.recordsRead == truth["reports"] as! Int)
        #expect(reports.count == truth["reports"] as! Int)
        let beacons = reports.compactMap(\.iBeacon)
        #expect(beacons.count == truth["ibeacon_reports"] as! Int)
        #expect(beacons.reduce(0) { $0 + Int($1.major) } == truth["sum_major"] as! Int)
        #expect(beacons.reduce(0) { $0 + Int($1.minor) } == truth["sum_minor"] as! Int)
        #expect(beacons.reduce(0) { $0 + Int($1.measuredPower) } == truth["sum_power"] as! Int)
        #expect(beacons.reduce(0) { $0 + Int($1.uuidHigh >> 32) } == truth["sum_uuid_hi32"] as! Int)
        // sum_rssi covers the iBeacon reports.
        #expect(reports.filter { $0.iBeacon != nil }.reduce(0) { $0 + Int($1.rssi ?? 0) } == truth["sum_rssi"] as! Int)
        let start = try #require(Timestamp(rfc3339: "2025-01-01T00:00:00Z"))
        #expect(reports.allSatisfy { $0.nanoseconds >= start.nanosecondsSinceEpoch })
        #expect(reports.allSatisfy { $0.nanoseconds - start.nanosecondsSinceEpoch < 1_000_000_000 })
    }

    @Test("the monitor (2001) and H4 (1002) synthetic files carry the same packets")
    func monitorEqualsH4() throws {
        func packets(_ name: String) throws -> [[UInt8]] {
            var out: [[UInt8]] = []
            try CaptureFile(path: CaptureFixtures.path(name)).forEachItem { item in
                if case .record(let record) = item { out.append(Array(record.bytes)) }
            }
            return out
        }
        let monitor = try packets("hci_2k_seed1.monitor.btsnoop")
        let h4 = try packets("hci_2k_seed1.btsnoop")
        #expect(monitor.count == 2000)
        #expect(monitor == h4)
    }

    @Test("requests and bad-CRC PDUs can be left out")
    func snifferFiltering() throws {
        let file = try CaptureFile(path: CaptureFixtures.path("mitll_anechoic_nrf52_0deg.pcapng"))
        let oracle = try OracleRow.load("mitll_anechoic_nrf52_0deg.pcapng.tshark.csv")
        let expected = oracle.filter { $0["crc_ok"] == "1" && $0["pdu_type"] != "0x03" }.count
        var count = 0
        CaptureDecoder(configuration: .init(includeBadCRC: false, includeRequests: false)).decode(file) { item in
            if case .advertisement = item { count += 1 }
        }
        #expect(count == expected)
    }
}

/// Oracle comparisons kept apart so the test above reads as a list of fields.
enum OracleRowMatch {
    static func adHex(_ row: OracleRow, _ data: [UInt8]) -> Bool {
        row.adHexMatches(tsharkDelimitedHex(data))
    }
}
