import BeaconCore
import BeaconCrypto
import BeaconTestSupport
import BeaconWire
import Foundation
import Testing

/// `beacond irk check` and `beacond devices` as a person runs them: a key file in the form they
/// copied it in, and captures from two gateways holding Ada's phone (three rotating private
/// addresses), a stranger's watch that names itself, and a beacon.
@Suite("beacond irk check and beacond devices")
struct DeviceCommandsTests {
    /// The specification's sample key, as BlueZ writes it (least significant byte first).
    static let blueZHex = "9b7d390aa610103405adc857a33402ec"
    static let key = IdentityResolvingKey(bytes: Array(blueZHex.utf8).chunked().reversed())!
    static let t0 = Timestamp(rfc3339: "2026-11-30T09:00:00Z")!

    static let watch = BluetoothAddress("da:11:22:33:44:55")!
    static let beacon = BluetoothAddress("cb:ea:c0:00:00:01")!

    /// Ada's phone's addresses, one per rotation.
    static let phone = (1...3).map { key.resolvablePrivateAddress(random: UInt32(1000 + $0)) }

    /// A directory with `ada.irk` (mode `mode`, holding `keyText`), `near.btsnoop` (everything loud)
    /// and `far.btsnoop` (everything 25 dB weaker).
    static func directory(keyText: String = blueZHex, mode: Int = 0o600) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-irk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try keyText.write(toFile: directory + "/ada.irk", atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: directory + "/ada.irk")
        for (file, loss) in [("near", 0), ("far", 25)] {
            let writer = try BtsnoopFileWriter(path: "\(directory)/\(file).btsnoop")
            for second in 0..<90 {
                let time = t0 + .seconds(Int64(second))
                // Flags and Apple's manufacturer data: what a phone sends, with no beacon frame.
                let phoneData: [UInt8] = [0x02, 0x01, 0x1A, 0x07, 0xFF, 0x4C, 0x00, 0x10, 0x02, 0x0B, 0x00]
                let watchData: [UInt8] = [0x02, 0x01, 0x06, 0x0C, 0x09] + Array("Bob's Watch".utf8)
                let beaconData = Self.iBeaconData
                for (address, data, rssi) in [
                    (phone[second / 30], phoneData, -48), (watch, watchData, -66), (beacon, beaconData, -58),
                ] {
                    var packet: [UInt8] = []
                    HCIEventEncoder.appendLEAdvertisingReport(
                        eventType: 0, addressType: .random, address: address, rssi: Int8(rssi - loss), data: data,
                        to: &packet)
                    try packet.withUnsafeBytes { try writer.append(h4Packet: $0, direction: .received, timestamp: time) }
                }
            }
            try writer.close()
        }
        return directory
    }

    static var iBeaconData: [UInt8] {
        var data: [UInt8] = []
        AdvertisingDataEncoder.appendFlags(to: &data)
        AdvertisingDataEncoder.appendIBeacon(
            IBeaconFrame(uuidHigh: 0x7427_8BDA_B644_4520, uuidLow: 0x8F0C_720E_AF05_9935, major: 1, minor: 2, measuredPower: -59),
            to: &data)
        return data
    }

    @Test("a key copied from BlueZ as bare hex is found to be lsb-first, with the phone's addresses, and never printed")
    func checkFindsTheOrder() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try await CommandRun.run(
            TestPaths.beacond, ["irk", "check", "ada.irk", "near.btsnoop", "far.btsnoop"], directory: directory)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("against 3 resolvable private addresses"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("msb-first (most significant byte first, as Home Assistant"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("resolves none"))
        #expect(run.standardOutput.contains("lsb-first (least significant byte first, as BlueZ"))
        #expect(run.standardOutput.contains("resolves 3: \(Self.phone[0]) -48 dBm in near.btsnoop"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("add order: lsb-first"))
        for text in [run.standardOutput, run.standardError] {
            #expect(!text.lowercased().contains("9b7d39") && !text.lowercased().contains("ec0234"))
        }
    }

    @Test("the keychain's base64 resolves too; a key of another device resolves none and exits 1")
    func otherForms() async throws {
        let keychain = try Self.directory(keyText: "m305CqYQEDQFrchXozQC7A==\n")
        defer { try? FileManager.default.removeItem(atPath: keychain) }
        let found = try await CommandRun.run(TestPaths.beacond, ["irk", "check", "ada.irk", "near.btsnoop"], directory: keychain)
        #expect(found.status == 0)
        #expect(found.standardOutput.contains("base64"), "\(found.standardOutput)")
        let other = try Self.directory(keyText: String(repeating: "5a", count: 16))
        defer { try? FileManager.default.removeItem(atPath: other) }
        let missed = try await CommandRun.run(TestPaths.beacond, ["irk", "check", "ada.irk", "near.btsnoop"], directory: other)
        #expect(missed.status == 1)
        #expect(missed.standardOutput.contains("resolves none of them"), "\(missed.standardOutput)")
    }

    @Test("a key file others may read is refused with the chmod that fixes it")
    func openKeyFile() async throws {
        let directory = try Self.directory(mode: 0o640)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try await CommandRun.run(TestPaths.beacond, ["irk", "check", "ada.irk", "near.btsnoop"], directory: directory)
        #expect(run.status == 2)
        #expect(
            run.standardError.contains("mode 0640") && run.standardError.contains("chmod 600 ada.irk"), "\(run.standardError)")
    }

    @Test("devices lists the unenrolled strongest first, where each was loudest; enrolled and beacons are left out")
    func devicesList() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try await CommandRun.run(
            TestPaths.beacond, ["devices", "far.btsnoop", "near.btsnoop"], directory: directory)
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("address") == true)
        // Ada's three addresses at -48, then Bob's watch at -66: all loudest in near.btsnoop.
        #expect(lines.count == 5, "\(lines)")
        #expect(
            lines.dropFirst().prefix(3).allSatisfy {
                $0.contains("random resolvable") && $0.contains("-48 dBm") && $0.contains("near.btsnoop")
            }, "\(lines)")
        #expect(lines.last?.contains("\(Self.watch)  random static") == true, "\(lines)")
        #expect(lines.last?.contains("Bob's Watch") == true)
        #expect(lines[1].contains("0x004c Apple"))
        #expect(!run.standardOutput.contains(Self.beacon.description))

        // Enrolled: Ada's phone is resolved and left out.
        try "devices: [{id: ada-phone, irk: ada.irk}]\n".write(
            toFile: directory + "/home.yaml", atomically: false, encoding: .utf8)
        let enrolled = try await CommandRun.run(
            TestPaths.beacond, ["devices", "--config", "home.yaml", "near.btsnoop", "--json"], directory: directory)
        #expect(enrolled.status == 0, "\(enrolled.standardError)")
        let objects = enrolled.standardOutput.split(separator: "\n")
        #expect(objects.count == 1 && objects[0].contains("\"name\":\"Bob's Watch\""), "\(enrolled.standardOutput)")
        #expect(enrolled.standardError.contains("4 beacons or enrolled devices left out"), "\(enrolled.standardError)")
    }
}

extension Array where Element == UInt8 {
    /// Hex digits (as UTF-8) two by two, as bytes.
    fileprivate func chunked() -> [UInt8] {
        stride(from: 0, to: count, by: 2).map { UInt8(String(decoding: self[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }
}
