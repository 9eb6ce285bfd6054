import BeaconConfiguration
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconPipeline
import BeaconStrategies
import BeaconStrategyKit
import BeaconTestSupport
import Foundation
import Testing

/// Errors found in a configuration file after its keys are read — a byte that is not UTF-8, a
/// character YAML refuses, a strategy that cannot be built, a region no one configured — say
/// where they are (`file:line`), as errors about a key's value always did.
@Suite("Configuration errors: found after reading, still at file:line")
struct ConfigurationErrorLocationTests {
    /// Writes `bytes` to a new file and returns its path (the directory is removed by `remove`).
    static func write(_ bytes: [UInt8], name: String = "gateway.yaml") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-located-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }

    static let alerts = """
        alerts:
          - id: lobby-dwell
            strategy: time
            parameters: {dwell: 60s}
            content: {title: Caf\u{E9}, message: Hello}

        """

    @Test("a byte that is not UTF-8 is refused at its line, column and offset, not as a file that cannot be read")
    func invalidUTF8() async throws {
        var bytes = Array(Self.alerts.utf8)
        // Line 5 is `    content: {title: Café, …`: its é (C3 A9) loses its second byte's place to 0x28.
        let at = try #require(bytes.firstIndex(of: 0xA9))
        bytes[at] = 0x28
        let path = try Self.write(bytes)
        defer { Self.remove(path) }
        #expect {
            try GatewayConfiguration.load(path: path)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.line == 5 && error.column == 25 && error.message.contains("not valid UTF-8")
                && error.message.contains("byte 0xC3 at offset \(at - 1)") && !error.message.contains("check the path")
        }
        let check = try await CommandRun.run(TestPaths.beacond, ["check-config", path])
        #expect(check.status == 2)
        #expect(check.standardError.contains("\(path):5:25: the file is not valid UTF-8"), "\(check.standardError)")
    }

    @Test("a control character YAML does not allow is refused at its line and column")
    func controlCharacter() throws {
        let path = try Self.write(Array(Self.alerts.replacingOccurrences(of: "Hello", with: "Hel\u{1}lo").utf8))
        defer { Self.remove(path) }
        #expect {
            try GatewayConfiguration.load(path: path)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.line == 5 && error.column == 40 && error.message.contains("U+0001")
        }
    }

    @Test("an alert with no parameters whose strategy cannot be built is refused at its strategy: line")
    func strategyWithoutParameters() throws {
        let text = "alerts:\n  - id: a\n    strategy: time\n  - id: b\n    strategy: no-such-strategy\n"
        let path = try Self.write(Array(text.utf8))
        defer { Self.remove(path) }
        let configuration = try GatewayConfiguration.load(path: path)
        #expect {
            try AlertPipeline(configuration: configuration, registry: .builtIn())
        } throws: { error in
            "\(error)".hasPrefix("alert 'b': \(path):5: unknown strategy \"no-such-strategy\"")
        }
        #expect {
            try checkGatewayConfiguration(path: path)
        } throws: { error in
            "\(error)".contains("\(path):5: ")
        }
    }

    @Test("an alert naming a region that ranging does not have is refused at its parameters' line")
    func unknownRegion() throws {
        let text = """
            ranging:
              regions: [{id: lobby}]
            alerts:
              - id: at-the-desk
                strategy: region
                parameters: {region: desk}

            """
        let path = try Self.write(Array(text.utf8))
        defer { Self.remove(path) }
        let configuration = try GatewayConfiguration.load(path: path)
        #expect {
            try AlertPipeline(configuration: configuration, registry: .builtIn())
        } throws: { error in
            "\(error)" == "alert 'at-the-desk': \(path):6: region 'desk' is not under ranging.regions (known: lobby)"
        }
    }
}
