import BeaconConfiguration
import BeaconCore
import BeaconCrypto
import BeaconDaemonConfiguration
import BeaconDevices
import Foundation
import Testing

/// `devices:` in a configuration file: the key file's permissions and forms, names and tags in
/// the directory, `order:`, and `match: {device: …}`. Errors never carry the key.
@Suite("Enrolled devices in the configuration")
struct DeviceConfigurationTests {
    static let sampleHex = "ec0234a357c8ad05341010a60a397d9b"

    /// A directory with `key` written to `ada.irk` in `mode`, and `yaml` as `gateway.yaml`.
    static func load(yaml: String, key: String = sampleHex, mode: Int = 0o600) throws -> GatewayConfiguration {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-devices-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyPath = directory.appendingPathComponent("ada.irk").path
        try key.write(toFile: keyPath, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: keyPath)
        let configPath = directory.appendingPathComponent("gateway.yaml").path
        try yaml.write(toFile: configPath, atomically: false, encoding: .utf8)
        return try GatewayConfiguration.load(path: configPath)
    }

    static let enrolled = """
        devices:
          - {id: ada-phone, name: "Ada's phone", irk: ada.irk, measuredPower: -62, tags: [family]}
        alerts:
          - {id: ada-home, match: {device: ada-phone}, strategy: enter}
          - {id: family, match: {tag: family}, strategy: enter}
        """

    @Test("a device is enrolled from an owner-only file beside the configuration, named and tagged like a beacon")
    func enrolled() throws {
        let configuration = try Self.load(yaml: Self.enrolled)
        let device = try #require(configuration.devices.first)
        #expect(device.id == BeaconID.device(named: "ada-phone"))
        #expect(device.candidates.map(\.order) == [.mostSignificantFirst, .leastSignificantFirst])
        #expect(device.measuredPower == -62)
        #expect(device.corroborates)
        #expect(configuration.beacons[device.id]?.name == "Ada's phone")
        #expect(configuration.alerts[0].match.matches(device.id))
        #expect(configuration.alerts[1].match.matches(device.id))
        #expect(!configuration.alerts[0].match.matches(.device(named: "bob-phone")!))
    }

    @Test("order: settles an open form to one key")
    func orderSettles() throws {
        let yaml = "devices: [{id: ada-phone, irk: ada.irk, order: lsb-first, corroborate: false}]"
        let device = try #require(try Self.load(yaml: yaml).devices.first)
        #expect(device.candidates.map(\.order) == [.leastSignificantFirst])
        #expect(!device.corroborates)
    }

    @Test("a key file others may read is refused with the chmod that fixes it, and the key is not in the message")
    func openKeyFileIsRefused() throws {
        #expect {
            try Self.load(yaml: "devices: [{id: ada-phone, irk: ada.irk}]", mode: 0o644)
        } throws: { error in
            let message = "\(error)"
            return message.contains("mode 0644") && message.contains("chmod 600") && message.contains("gateway.yaml:1")
                && !message.contains("ec0234")
        }
    }

    @Test(
        "a bad key, id, order or match says what is wrong, never the key",
        arguments: [
            ("devices: [{id: ada-phone, irk: ada.irk}]", "ec0234a357c8ad05341010a60a397d", "32 hexadecimal digits"),
            ("devices: [{id: ada phone, irk: ada.irk}]", sampleHex, "not a device id"),
            ("devices: [{id: ada-phone, irk: missing.irk}]", sampleHex, "does not exist"),
            ("devices: [{id: ada-phone, irk: ada.irk, order: big}]", sampleHex, "msb-first"),
            (
                "devices: [{id: ada-phone, irk: ada.irk}]\nalerts: [{id: x, match: {device: bob}, strategy: enter}]",
                sampleHex, "no device is enrolled as 'bob'; enrolled: ada-phone"
            ),
        ])
    func refused(yaml: String, key: String, expected: String) throws {
        #expect {
            try Self.load(yaml: yaml, key: key)
        } throws: { error in
            "\(error)".contains(expected) && !"\(error)".contains("ec0234a3")
        }
    }
}
