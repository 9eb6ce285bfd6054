import BeaconConfiguration
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconSinks
import BeaconTestSupport
import Testing

/// A kind of sink added by registration alone: read from the configuration, built and fed by the
/// daemon like the stock kinds.
@Suite("Sink kinds: a registry")
struct SinkRegistryTests {
    /// `{type: memory, label: …}`: events kept in memory (the test's own sink).
    struct MemorySinkSettings: SinkSettings {
        let label: String
        let sink: InMemorySink

        var target: String { label }
        func makeSink() throws -> BuiltSink { BuiltSink(sink) }

        static func == (lhs: Self, rhs: Self) -> Bool { lhs.label == rhs.label && lhs.sink === rhs.sink }
        func hash(into hasher: inout Hasher) { hasher.combine(label) }
    }

    static func registry(with sink: InMemorySink) -> SinkRegistry {
        var registry = SinkRegistry.builtIn
        registry.register(
            SinkKind(type: "memory", keys: ["label"]) { node throws(ConfigurationError) in
                MemorySinkSettings(label: try node.required("label").string(), sink: sink)
            })
        return registry
    }

    @Test("a registered kind is read, named and delivered to by the daemon, next to a stock one")
    func customKindDelivers() async throws {
        let sink = InMemorySink()
        let configuration = try GatewayConfiguration(
            node: ConfigNode(
                yaml: """
                    source: simulate:\(TestPaths.scenario("lobby"))
                    sinks:
                      - {type: memory, label: here}
                      - {type: jsonl, path: /dev/null}
                    alerts:
                      - id: lobby-dwell
                        match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5}
                        strategy: time
                        parameters: {dwell: 60s, gap: 10s, maxTimeBeforeReset: 60s}
                    """), sinkKinds: Self.registry(with: sink))
        #expect(configuration.sinks.map(\.name) == ["memory:here", "jsonl:/dev/null"])
        let gateway = try buildGateway(configuration)
        try await gateway.run()
        let kinds = sink.delivered.map { $0.body.contains(#""event":"created""#) ? "created" : "other" }
        #expect(sink.delivered.count == 2)
        #expect(kinds.first == "created")
        #expect(sink.delivered.allSatisfy { $0.body.contains(#""alert":"lobby-dwell""#) })
    }

    @Test("an unknown type names every registered kind, the custom ones too")
    func unknownType() throws {
        let registry = Self.registry(with: InMemorySink())
        #expect(registry.types == ["jsonl", "webhook", "exec", "mqtt", "memory"])
        #expect {
            _ = try GatewayConfiguration(node: ConfigNode(yaml: "sinks: [{type: pager}]\n"), sinkKinds: registry)
        } throws: { error in
            "\(error)".contains("'pager' is not one of: jsonl, webhook, exec, mqtt, memory")
        }
    }

    @Test("a kind's keys are checked at their line")
    func unknownKey() throws {
        #expect {
            _ = try GatewayConfiguration(node: ConfigNode(yaml: "sinks:\n  - {type: jsonl, url: x}\n"))
        } throws: { error in
            "\(error)".contains("url")
        }
    }
}
