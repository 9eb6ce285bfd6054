import Foundation
import Testing

@testable import BeaconWire

@Suite("AdvertisementJSONLinesWriter")
struct AdvertisementJSONLinesWriterTests {
    /// The JSON objects `beacond parse` writes for fixture `name`.
    static func objects(_ name: String, only: BeaconFamily? = nil) throws -> [[String: Any]] {
        var output: [UInt8] = []
        _ = AdvertisementExport(options: .init(format: .jsonLines, only: only)).run(
            paths: [CaptureFixtures.path(name)], output: { output += $0 }, diagnostics: { _ in })
        return try output.split(separator: UInt8(ascii: "\n")).map {
            try JSONSerialization.jsonObject(with: Data($0)) as! [String: Any]
        }
    }

    static let keys: Set<String> = [
        "time", "frame", "report_index", "source", "address", "address_type", "event_type",
        "pdu_type", "rssi", "tx_power", "channel", "crc_ok", "sid", "data", "data_malformed",
        "local_name", "tx_power_level", "ibeacon", "altbeacon", "eddystone",
    ]

    @Test("every line is a JSON object with every key; iBeacon and name facts agree with the oracle")
    func csaccaLines() throws {
        let objects = try Self.objects("csacca_horizon74_btsnoop_hci.btsnoop")
        let oracle = try OracleRow.load("csacca_horizon74_btsnoop_hci.btsnoop.tshark.csv")
        #expect(objects.count == oracle.count)
        for (object, row) in zip(objects, oracle) {
            #expect(Set(object.keys) == Self.keys)
            #expect(object["frame"] as? Int == Int(row["frame"]))
            #expect(object["address"] as? String == row["address"])
            #expect(object["source"] as? String == "legacy")
            if row["ibeacon_uuid"].isEmpty {
                #expect(object["ibeacon"] is NSNull)
            } else {
                let beacon = try #require(object["ibeacon"] as? [String: Any])
                #expect(beacon["uuid"] as? String == row["ibeacon_uuid"].uppercased())
                #expect(beacon["major"] as? Int == Int(row["ibeacon_major"]))
                #expect(beacon["minor"] as? Int == Int(row["ibeacon_minor"]))
                #expect(beacon["power"] as? Int == Int(row["ibeacon_measured_power"]))
            }
            if !row["local_name"].isEmpty, !row["local_name"].contains("\\x"), !row["ad_hex"].contains("??") {
                #expect(object["local_name"] as? String == row["local_name"])
            }
        }
    }

    @Test("sniffer lines carry channel, CRC and PDU name")
    func snifferLines() throws {
        let objects = try Self.objects("mitll_anechoic_nrf52_0deg.pcapng")
        let oracle = try OracleRow.load("mitll_anechoic_nrf52_0deg.pcapng.tshark.csv")
        let names = ["0x00": "ADV_IND", "0x02": "ADV_NONCONN_IND", "0x03": "SCAN_REQ", "0x04": "SCAN_RSP"]
        for (object, row) in zip(objects, oracle) {
            #expect(object["channel"] as? Int == Int(row["channel"]))
            #expect(object["crc_ok"] as? Bool == (row["crc_ok"] == "1"))
            #expect(object["pdu_type"] as? String == names[row["pdu_type"]])
            #expect(object["rssi"] as? Int == Int(row["rssi"]))
        }
    }

    @Test("Eddystone frames of the synthetic capture are decoded (truth: 92 UID, 40 URL)")
    func eddystone() throws {
        let objects = try Self.objects("hci_2k_seed1.btsnoop", only: .eddystone)
        let frames = objects.compactMap { ($0["eddystone"] as? [String: Any])?["frame"] as? String }
        #expect(frames.filter { $0 == "uid" }.count == 92)
        #expect(frames.filter { $0 == "url" }.count == 40)
        #expect(objects.count == 132)
        let uid = try #require(objects.compactMap { $0["eddystone"] as? [String: Any] }.first { $0["frame"] as? String == "uid" })
        let namespace = try #require(uid["namespace"] as? String)
        let instance = try #require(uid["instance"] as? String)
        #expect(namespace.count == 20) // 10 bytes
        #expect(instance.count == 12) // 6 bytes
        let url = try #require(objects.compactMap { $0["eddystone"] as? [String: Any] }.first { $0["frame"] as? String == "url" })
        #expect((url["url"] as? String)?.hasPrefix("http") == true)
    }
}
