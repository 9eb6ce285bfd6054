import BeaconCore
import BeaconCrypto
import BeaconTestSupport
import BeaconWire
import Foundation
import Testing

/// `beacond replay --site` with `devices:` and `people:` in `--config`: a phone heard by two
/// gateways from a private address that changes is resolved at each gateway and fused as
/// `device:ada-phone`; without the key nothing of it is ranged.
@Suite("replay --site: enrolled devices")
struct SiteReplayDevicesTests {
    static let key = try! IdentityResolvingKeyText(parsing: "ec0234a357c8ad05341010a60a397d9b")
    static let t0 = Timestamp(rfc3339: "2026-11-30T09:00:00Z")!

    /// Two minutes of a phone's advertisements, once a second, its address changing after one
    /// minute, as the gateway at `rssi` hears them.
    static func capture(_ path: String, rssi: Int8) throws {
        let writer = try BtsnoopFileWriter(path: path)
        let phoneData: [UInt8] = [0x02, 0x01, 0x1A, 0x07, 0xFF, 0x4C, 0x00, 0x10, 0x02, 0x0B, 0x00]
        let addresses = [1, 2].map { key.candidates[0].key.resolvablePrivateAddress(random: UInt32($0)) }
        for second in 0..<120 {
            var packet: [UInt8] = [] // the encoder writes the H4 type byte too
            HCIEventEncoder.appendLEAdvertisingReport(
                eventType: 3, addressType: .random, address: addresses[second / 60], rssi: rssi, data: phoneData, to: &packet)
            try packet.withUnsafeBytes { bytes in
                try writer.append(h4Packet: bytes, direction: .received, timestamp: t0 + .seconds(Int64(second)))
            }
        }
        try writer.close()
    }

    @Test(
        "the phone is fused as device:ada-phone in the louder gateway's room once its second address resolved; without devices: nothing"
    )
    func resolvedInTheSite() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "beacond-replay-devices-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.capture(directory + "/office.btsnoop", rssi: -55)
        try Self.capture(directory + "/hall.btsnoop", rssi: -80)
        try """
        gateways:
          - {id: office, room: office, position: [0, 0, 2], capture: office.btsnoop}
          - {id: hall, room: hall, position: [12, 0, 2], capture: hall.btsnoop}
        """.write(toFile: directory + "/site.yaml", atomically: false, encoding: .utf8)
        try "ec0234a357c8ad05341010a60a397d9b\n".write(toFile: directory + "/ada.irk", atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory + "/ada.irk")
        try """
        devices: [{id: ada-phone, irk: ada.irk}]
        people: [{name: Ada, devices: [ada-phone]}]
        alerts: []
        """.write(toFile: directory + "/hub.yaml", atomically: false, encoding: .utf8)
        try "alerts: []\n".write(toFile: directory + "/none.yaml", atomically: false, encoding: .utf8)
        for (config, resolved) in [("hub.yaml", true), ("none.yaml", false)] {
            let presence = "presence-\(config).jsonl"
            let run = try await CommandRun.run(
                TestPaths.beacond,
                ["replay", "--site", "site.yaml", "--config", config, "--presence", presence, "--calibration", "off"],
                directory: directory)
            #expect(run.status == 0, "\(run.standardError)")
            let lines = try String(contentsOfFile: directory + "/" + presence, encoding: .utf8).split(separator: "\n")
            let phone = lines.filter { $0.contains(#""device":"ada-phone""#) }
            if resolved {
                #expect(phone.count >= 30, "\(phone.count) presence lines of the phone")
                #expect(phone.last?.contains(#""room":"office""#) == true, "\(phone.last ?? "")")
            } else {
                #expect(lines.isEmpty, "without the key the phone is nobody: \(lines.prefix(2))")
            }
        }
    }
}
