import Foundation
import Testing

@testable import BeaconWire

@Suite("AdvertisementCSVWriter against the oracle")
struct AdvertisementCSVWriterTests {
    /// The CSV `beacond parse --format csv` writes for fixture `name`.
    static func csv(_ name: String) throws -> [[String]] {
        var output: [UInt8] = []
        let status = AdvertisementExport(options: .init(format: .csv)).run(
            paths: [CaptureFixtures.path(name)], output: { output += $0 }, diagnostics: { _ in })
        #expect(status == .success)
        return String(decoding: output, as: UTF8.self).split(separator: "\n")
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test("the header starts with the nine required columns")
    func header() throws {
        let rows = try Self.csv("csacca_horizon74_btsnoop_hci.btsnoop")
        #expect(
            Array(rows[0].prefix(9)) == [
                "time", "address", "address_type", "event_type", "rssi", "ibeacon_uuid",
                "ibeacon_major", "ibeacon_minor", "ibeacon_power",
            ])
        #expect(rows.dropFirst().allSatisfy { $0.count == rows[0].count })
    }

    @Test("every row's first nine columns are the oracle's, in file order", arguments: CaptureFixtures.oracleCaptures)
    func rowsMatchOracle(capture: String) throws {
        let rows = try Self.csv(capture).dropFirst()
        let oracle = try OracleRow.load(capture + ".tshark.csv")
        #expect(rows.count == oracle.count)
        let names = ["0x00": "public", "0x01": "random", "0x02": "public_identity", "0x03": "random_identity"]
        for (row, expected) in zip(rows, oracle) {
            let frame = Int(expected["frame"])!
            #expect(row[13] == expected["frame"], "frame column")
            #expect(row[0] == expected["time_epoch"], "frame \(frame) time")
            #expect(row[1] == expected["address"], "frame \(frame) address")
            if CaptureDecoderTests.addressTypeOverrides[capture]?[frame] == nil {
                #expect(row[2] == names[expected["addr_type"]], "frame \(frame) address type")
            }
            #expect(
                row[3] == (expected["source"] == "ll_adv" ? expected["pdu_type"] : expected["event_type"]),
                "frame \(frame) event type")
            #expect(row[4] == (expected["rssi"] == "127" ? "" : expected["rssi"]), "frame \(frame) rssi")
            #expect(row[5] == expected["ibeacon_uuid"].uppercased(), "frame \(frame) uuid")
            #expect(row[6] == expected["ibeacon_major"])
            #expect(row[7] == expected["ibeacon_minor"])
            #expect(row[8] == expected["ibeacon_measured_power"])
        }
    }
}
