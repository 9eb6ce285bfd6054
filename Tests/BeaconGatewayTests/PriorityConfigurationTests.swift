import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import Testing

/// `priority` in a configuration file (issue 39, item 2): read into the policy; a wrong value
/// refused at its own line and column with the values it takes, and `remind` on a passive alert
/// at the line of `remind`.
@Suite("Configuration: priority")
struct PriorityConfigurationTests {
    static func read(_ yaml: String) throws(ConfigurationError) -> GatewayConfiguration {
        try GatewayConfiguration(node: ConfigNode(yaml: yaml, file: "gw.yaml"))
    }

    static func yaml(_ priority: String?, remind: Bool = false) -> String {
        """
        source: {simulate: lobby.yaml}
        sinks: [{type: jsonl, path: "-"}]
        alerts:
          - id: fall
            strategy: enter
        \(priority.map { "    priority: \($0)\n" } ?? "")\(remind ? "    remind: {every: 2m}\n" : "")
        """
    }

    @Test("each level is read; without the key it is active")
    func read() throws {
        for level in AlertPriority.allCases {
            #expect(try Self.read(Self.yaml(level.rawValue)).alerts.first?.policy.priority == level)
        }
        #expect(try Self.read(Self.yaml(nil)).alerts.first?.policy.priority == .active)
    }

    @Test("a wrong value is refused at its line and column, with the values it takes")
    func refused() throws {
        let error = #expect(throws: ConfigurationError.self) { try Self.read(Self.yaml("timeSensitive")) }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.hasPrefix("gw.yaml:6:15:"), "\(text)")
        #expect(text.contains("passive, active, time-sensitive, critical"), "\(text)")
    }

    @Test("remind on a passive alert is refused at the line of remind, saying what to change")
    func passiveReminds() throws {
        let error = #expect(throws: ConfigurationError.self) { try Self.read(Self.yaml("passive", remind: true)) }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.hasPrefix("gw.yaml:7:"), "\(text)")
        #expect(text.contains("never reminded") && text.contains("remove 'remind'"), "\(text)")
        #expect(try Self.read(Self.yaml("active", remind: true)).alerts.first?.policy.remind != nil)
    }
}
