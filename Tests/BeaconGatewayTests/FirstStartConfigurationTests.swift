import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import Testing

/// `firstStart` in a configuration file (issue 39): read into the policy; a wrong value refused
/// at its own line and column, with the values it takes.
@Suite("Configuration: firstStart")
struct FirstStartConfigurationTests {
    static func read(_ yaml: String) throws(ConfigurationError) -> GatewayConfiguration {
        try GatewayConfiguration(node: ConfigNode(yaml: yaml, file: "gw.yaml"))
    }

    static func yaml(_ firstStart: String?) -> String {
        """
        source: {simulate: lobby.yaml}
        sinks: [{type: jsonl, path: "-"}]
        alerts:
          - id: welcome
            strategy: enter
        \(firstStart.map { "    firstStart: \($0)\n" } ?? "")
        """
    }

    @Test("quiet and fire are read; without the key it is fire")
    func read() throws {
        #expect(try Self.read(Self.yaml("quiet")).alerts.first?.policy.firstStart == .quiet)
        #expect(try Self.read(Self.yaml("fire")).alerts.first?.policy.firstStart == .fire)
        #expect(try Self.read(Self.yaml(nil)).alerts.first?.policy.firstStart == .fire)
    }

    @Test("a wrong value is refused at its line and column, with the values it takes")
    func refused() throws {
        let error = #expect(throws: ConfigurationError.self) { try Self.read(Self.yaml("loud")) }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.hasPrefix("gw.yaml:6:17:"), "\(text)")
        #expect(text.contains("firstStart") && text.contains("fire") && text.contains("quiet"), "\(text)")
    }
}
