import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import Testing

/// `retention:`: defaults when absent, durations or `forever` per limit, and clear errors.
@Suite("Configuration: retention")
struct RetentionConfigurationTests {
    static func parse(_ yaml: String) throws(ConfigurationError) -> GatewayConfiguration {
        try GatewayConfiguration(node: ConfigNode(yaml: yaml, file: "gw.yaml"))
    }

    @Test("without retention: histories 90 days, dead letters 30, presence lines and recordings 7")
    func defaults() throws {
        let retention = try Self.parse("source: replay:a.btsnoop\n").retention
        #expect(retention.history == .seconds(90 * 86_400))
        #expect(retention.deadLetters == .seconds(30 * 86_400))
        #expect(retention.presence == .seconds(7 * 86_400))
        #expect(retention.recordings == .seconds(7 * 86_400))
    }

    @Test("each limit is a duration or forever; one left out keeps its default")
    func limits() throws {
        let retention = try Self.parse("retention: {history: forever, deadLetters: 12h, presence: 2d}\n").retention
        #expect(retention.history == nil)
        #expect(retention.deadLetters == .seconds(12 * 3600))
        #expect(retention.presence == .seconds(2 * 86_400))
        #expect(retention.recordings == .seconds(7 * 86_400))
    }

    @Test(
        "a wrong limit is refused at its line, saying what is expected",
        arguments: [
            ("retention:\n  history: 10s\n", "gw.yaml:2", "at least 1m"),
            ("retention:\n  presence: soon\n", "gw.yaml:2", "or forever, found 'soon'"),
            ("retention:\n  recording: 7d\n", "gw.yaml:2", "unknown key 'recording'"),
        ])
    func refused(_ yaml: String, _ place: String, _ message: String) {
        #expect {
            _ = try Self.parse(yaml)
        } throws: { error in
            let text = "\(error)"
            return text.contains(place) && text.contains(message)
        }
    }
}
