import BeaconConfiguration
import BeaconSimulator
import Foundation
import Testing

/// A scenario that cannot be used is refused at a line of its file, whatever is wrong with it:
/// nothing in it, a byte that is not UTF-8, two gateways of one name, a site gateway whose name
/// cannot be its id.
@Suite("Scenario errors: always at file:line")
struct ScenarioErrorLocationTests {
    static let gateways = """
        name: shop
        duration: 1m
        rooms:
          - {name: floor, area: {min: [0, 0], max: [10, 10]}}
        gateways:
          - {name: west, position: [1, 1, 2]}
          - {name: east, position: [9, 9, 2]}
        beacons:
          - {name: tag, ibeacon: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 1}, position: [5, 5, 1]}

        """

    /// The error reading `bytes` as a scenario file.
    static func error(loading bytes: [UInt8]) throws -> ConfigurationError {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-scenario-\(UUID().uuidString).yaml")
            .path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try Scenario.load(path: path)
        } catch {
            #expect(error.file == path)
            return error
        }
        Issue.record("the scenario was accepted")
        return ConfigurationError(file: path, message: "accepted")
    }

    @Test("an empty scenario, or one of comments only, is refused at line 1", arguments: ["", "# nothing yet\n"])
    func empty(text: String) throws {
        let error = try Self.error(loading: Array(text.utf8))
        #expect(error.line == 1)
        #expect(error.description.contains(":1: missing 'duration'"), "\(error)")
    }

    @Test("a byte that is not UTF-8 is refused at its line and column, with its offset")
    func invalidUTF8() throws {
        var bytes = Array(Self.gateways.utf8)
        // The w of `west`, on line 6: `  - {name: west, …`.
        let west = try #require(Self.gateways.range(of: "west"))
        let at = Self.gateways.utf8.distance(from: Self.gateways.startIndex, to: west.lowerBound)
        bytes[at] = 0xFF
        let error = try Self.error(loading: bytes)
        #expect(error.line == 6)
        #expect(error.column == 12)
        #expect(error.message.contains("not valid UTF-8: byte 0xFF at offset \(at)"), "\(error)")
        #expect(!error.message.contains("check the path"))
    }

    @Test("two gateways of one name are refused at the second name")
    func duplicateGateway() throws {
        let error = try Self.error(loading: Array(Self.gateways.replacingOccurrences(of: "east", with: "west").utf8))
        #expect(error.line == 7)
        #expect(error.message.contains("'west' is listed twice"), "\(error)")
    }

    @Test("a site gateway whose name cannot be a topic level is refused at its name")
    func siteGatewayName() throws {
        let error = try Self.error(loading: Array(Self.gateways.replacingOccurrences(of: "east", with: "\"east/2\"").utf8))
        #expect(error.line == 7)
        #expect(error.message.contains("1–64 letters, digits"), "\(error)")
    }
}
