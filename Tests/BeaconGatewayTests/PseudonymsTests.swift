import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconDevices
import BeaconSimulator
import BeaconTestSupport
import Foundation
import Testing

/// `pseudonyms:`: devices, people and the names of what people carry leave the daemon only as
/// keyed hashes, the same for the same site key (values checked against Python's `hmac`), while
/// the configuration and `beacond forget` still take the written names.
@Suite("Pseudonyms")
struct PseudonymsTests {
    static let key = "00112233445566778899aabbccddeeff"
    /// `'p-' + hmac.new(bytes.fromhex(key), b'device:ada-phone', hashlib.sha256).hexdigest()[:16]`, and so on.
    static let adaPhone = "p-a59e2cdb6754fc98"
    static let adaWatch = "p-84f0540e4163b56b"
    static let ada = "p-0e4b992c1441d839"

    static func configuration(key: String = key) throws -> GatewayConfiguration {
        let text = try String(contentsOfFile: TestPaths.repositoryRoot + "/Simulator/Scenarios/flat.alerts.yaml", encoding: .utf8)
        let scenario = try Scenario.load(path: TestPaths.scenario("flat"))
        return try GatewayConfiguration(
            node: ConfigNode(yaml: text + "\npseudonyms: {key: \"\(key)\"}\n", file: "flat.yaml"),
            scenarioPhoneKeys: scenario.phoneKeys)
    }

    @Test("devices, the person and the alert's match are under keyed hashes; the written names are aliases")
    func configurationUnderPseudonyms() throws {
        let configuration = try Self.configuration()
        #expect(configuration.devices.map(\.id) == [.device(named: Self.adaPhone)!, .device(named: Self.adaWatch)!])
        #expect(configuration.people.map(\.name) == [Self.ada])
        #expect(configuration.people.first?.isNamed("Ada") == true)
        #expect(configuration.beacons.beacons.map(\.name) == [Self.adaPhone, Self.adaWatch], "no written name is shown")
        #expect(configuration.beacons.identity(named: "ada-phone") == .device(named: Self.adaPhone))
        #expect(configuration.beacons.identity(named: "Ada's watch") == .device(named: Self.adaWatch))
        let match = try #require(configuration.alerts.first?.match)
        #expect(match.matches(.device(named: Self.adaWatch)!))
        #expect(!"\(match)".contains("Ada"), "\(match)")
    }

    @Test("another site's key gives other pseudonyms")
    func keyedPerSite() throws {
        let other = try Self.configuration(key: "ffeeddccbbaa99887766554433221100")
        #expect(other.devices.first?.id == .device(named: "p-6d87291116a02da0"))
    }

    @Test("a simulated evening in the flat: presence lines and events carry the pseudonyms, nothing of Ada's written names")
    func simulatedOutputs() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-pseudo-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = try String(contentsOfFile: TestPaths.repositoryRoot + "/Simulator/Scenarios/flat.alerts.yaml", encoding: .utf8)
        try (text + "\npseudonyms: {key: \"\(Self.key)\"}\n").write(
            toFile: directory + "/flat.alerts.yaml", atomically: false, encoding: .utf8)
        let run = try await CommandRun.run(
            TestPaths.beacond,
            [
                "simulate", TestPaths.scenario("flat"), "--config", "flat.alerts.yaml", "--presence", "presence.jsonl",
                "--quiet",
            ], directory: directory)
        #expect(run.status == 0, "\(run.standardError)")
        let presence = try String(contentsOfFile: directory + "/presence.jsonl", encoding: .utf8)
        #expect(presence.contains(#""device":"\#(Self.adaPhone)""#))
        #expect(presence.contains(#""device":"\#(Self.adaWatch)""#))
        #expect(run.standardOutput.contains(#""alert":"ada-bedroom""#), "Ada rested in the bedroom: \(run.standardOutput)")
        for output in [presence, run.standardOutput] {
            #expect(output.range(of: "ada-phone", options: .caseInsensitive) == nil)
            #expect(output.range(of: "ada-watch", options: .caseInsensitive) == nil)
            #expect(!output.contains("Ada's"))
        }
    }
}
