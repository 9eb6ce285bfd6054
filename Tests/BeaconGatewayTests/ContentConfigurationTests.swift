import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import Testing

/// `content:` with templates and a list of messages (issue 39, item 1): read into the rule; an
/// unknown field refused at its own line and column, with the fields there are.
@Suite("Configuration: content per occurrence")
struct ContentConfigurationTests {
    static func read(_ content: String) throws(ConfigurationError) -> GatewayConfiguration {
        try GatewayConfiguration(
            node: ConfigNode(
                yaml: """
                    source: {simulate: lobby.yaml}
                    sinks: [{type: jsonl, path: "-"}]
                    alerts:
                      - id: desk
                        strategy: time
                        content:
                    \(content)
                    """, file: "gw.yaml"))
    }

    @Test("a list of messages with pick, and a title template, are read; the plain message is the first")
    func read() throws {
        let config = try Self.read(
            """
                  title: "{name} at the desk"
                  messages: ["Hello {name}", "Welcome back", "Coffee is on the left"]
                  pick: by-day
            """)
        let alert = try #require(config.alerts.first)
        let variations = try #require(alert.rule.variations)
        #expect(variations.pick == .byDay)
        #expect(variations.messages.map(\.description) == ["Hello {name}", "Welcome back", "Coffee is on the left"])
        #expect(variations.title?.fields == [.name])
        #expect(alert.rule.content.message == "Hello {name}")
        let plain = try Self.read("      {title: Welcome, message: Hello}")
        #expect(plain.alerts.first?.rule.variations == nil, "fixed content varies in nothing")
    }

    @Test(
        "mistakes are refused at their line and column, saying what to write",
        arguments: [
            ("      {title: Hi, message: \"Hello {nmae}\"}", "gw.yaml:7:28:", "'{nmae}'"),
            ("      messages: [\"a\", \"b {room\"]\n", "gw.yaml:7:23:", "opens a brace"),
            ("      {message: a, messages: [b, c]}", "gw.yaml:7:30:", "either 'message' or 'messages'"),
            ("      {message: a, pick: random}", "gw.yaml:7:26:", "'pick' chooses among 'messages'"),
            ("      {messages: [a, b], pick: daily}", "gw.yaml:7:32:", "in-turn, random, by-day"),
            ("      {messages: []}", "gw.yaml:7:18:", "'messages' is empty"),
        ])
    func refusals(content: String, place: String, message: String) {
        do {
            _ = try Self.read(content)
            Issue.record("accepted \(content)")
        } catch {
            #expect(error.description.hasPrefix(place), "\(error)")
            #expect(error.description.contains(message), "\(error)")
        }
    }
}
