import BeaconCore
import Testing
@testable import BeaconGateway

@Suite("Daemon configuration: source, state, sinks")
struct DaemonConfigurationTests {
    static func parse(_ yaml: String) throws(ConfigurationError) -> GatewayConfiguration {
        try GatewayConfiguration(node: ConfigNode(yaml: yaml, file: "gw.yaml"))
    }

    @Test("source, state and every sink type are read with their settings and default names")
    func complete() throws {
        let config = try Self.parse("""
            source: replay:lobby.btsnoop
            state: /var/lib/beacond/state.sqlite
            maxBacklog: 500
            sinks:
              - {type: jsonl, path: -}
              - {type: webhook, url: "https://hooks.example/alerts", secret: abc, timeout: 2s}
              - {type: exec, name: notifier, command: notify-send beacond}
              - {type: mqtt, port: 1884, gateway: lobby}
            """)
        #expect(config.source == .replay(path: "lobby.btsnoop", speed: nil))
        #expect(config.statePath == "/var/lib/beacond/state.sqlite")
        #expect(config.maxBacklog == 500)
        #expect(config.sinks == [
            SinkDefinition(name: "jsonl:-", kind: .jsonl(path: "-")),
            SinkDefinition(name: "webhook:https://hooks.example/alerts",
                           kind: .webhook(url: "https://hooks.example/alerts", secret: "abc", timeout: .seconds(2))),
            SinkDefinition(name: "notifier", kind: .exec(command: "notify-send beacond", timeout: .seconds(30))),
            SinkDefinition(name: "mqtt://127.0.0.1:1884/beacond/lobby/alerts",
                           kind: .mqtt(MQTTSinkSettings(port: 1884, gateway: "lobby"))),
        ])
    }

    @Test("each way of writing a source", arguments: [
        ("source: simulate:site.yaml", SourceDefinition.simulate(path: "site.yaml", speed: nil)),
        ("source: hci:hci1", .hci(adapter: "hci1")),
        ("source: hci", .hci(adapter: nil)),
        ("source: {replay: cap.pcap, speed: 10}", .replay(path: "cap.pcap", speed: 10)),
        ("source: {simulate: site.yaml, speed: max}", .simulate(path: "site.yaml", speed: nil)),
    ])
    func sources(yaml: String, expected: SourceDefinition) throws {
        #expect(try Self.parse(yaml).source == expected)
    }

    @Test("mistakes are located by line and say what would be right", arguments: [
        ("source: radio:hci0\n", "gw.yaml:1", "unknown source 'radio'"),
        ("sinks:\n  - {type: webhook, url: ftp://x}\n", "gw.yaml:2", "is not an http:// or https:// URL"),
        ("sinks:\n  - type: jsonl\n    pth: out.jsonl\n", "gw.yaml:3", "unknown key 'pth'"),
        ("sinks:\n  - {type: kafka}\n", "gw.yaml:2", "is not one of: jsonl, webhook, exec, mqtt"),
        ("sinks:\n  - {type: exec}\n", "gw.yaml:2", "missing 'command'"),
        ("sinks:\n  - {type: jsonl}\n  - {type: jsonl, path: -}\n", "gw.yaml:3", "two sinks are named 'jsonl:-'"),
        ("source: {replay: a.pcap, speed: 0}\n", "gw.yaml:1", "speed must be max or a positive factor"),
        ("sinks:\n  - {type: exec, command: x, timeout: 0s}\n", "gw.yaml:2", "timeout must be positive"),
        ("stat: x.sqlite\n", "gw.yaml:1", "did you mean 'state'?"),
    ])
    func mistakes(yaml: String, place: String, message: String) {
        #expect {
            try Self.parse(yaml)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix(place) && text.contains(message)
        }
    }
}
