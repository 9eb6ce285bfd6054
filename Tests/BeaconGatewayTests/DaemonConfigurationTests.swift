import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconMQTT
import Testing

@testable import BeaconGateway

@Suite("Daemon configuration: source, state, sinks")
struct DaemonConfigurationTests {
    static func parse(_ yaml: String) throws(ConfigurationError) -> GatewayConfiguration {
        try GatewayConfiguration(node: ConfigNode(yaml: yaml, file: "gw.yaml"))
    }

    @Test("source, state and every sink type are read with their settings and default names")
    func complete() throws {
        let config = try Self.parse(
            """
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
        #expect(
            config.sinks == [
                SinkDefinition(name: "jsonl:-", type: "jsonl", settings: JSONLinesSinkSettings(path: "-")),
                SinkDefinition(
                    name: "webhook:https://hooks.example/alerts", type: "webhook",
                    settings: WebhookSinkSettings(url: "https://hooks.example/alerts", secret: "abc", timeout: .seconds(2))),
                SinkDefinition(
                    name: "notifier", type: "exec",
                    settings: ExecSinkSettings(command: "notify-send beacond", timeout: .seconds(30))),
                SinkDefinition(
                    name: "mqtt://127.0.0.1:1884/beacond/lobby/alerts", type: "mqtt",
                    settings: MQTTSinkSettings(port: 1884, gateway: "lobby")),
            ])
    }

    @Test(
        "each way of writing a source",
        arguments: [
            ("source: simulate:site.yaml", SourceDefinition.simulate(path: "site.yaml", speed: nil)),
            ("source: hci:hci1", .hci(adapter: "hci1")),
            ("source: hci", .hci(adapter: nil)),
            ("source: {replay: cap.pcap, speed: 10}", .replay(path: "cap.pcap", speed: 10)),
            ("source: {simulate: site.yaml, speed: max}", .simulate(path: "site.yaml", speed: nil)),
            ("source: {replay: cap.pcap, resume: false}", .replay(path: "cap.pcap", speed: nil, resume: false)),
            ("source: {simulate: site.yaml, resume: no}", .simulate(path: "site.yaml", speed: nil, resume: false)),
            (
                "source: {simulate: site.yaml, gateway: hall-a, speed: wall}",
                .simulate(path: "site.yaml", speed: nil, gateway: "hall-a", onWallClock: true)
            ),
            (
                "source: {hci: hci1, active: true, interval: 200ms, window: 50ms, watchdog: 0s, record: air.btsnoop}",
                .hci(
                    HCISourceSettings(
                        adapter: "hci1", active: true, interval: .milliseconds(200), window: .milliseconds(50),
                        watchdog: nil, record: "air.btsnoop"))
            ),
            ("source: {hci: hci0, watchdog: 2m}", .hci(HCISourceSettings(adapter: "hci0", watchdog: .seconds(120)))),
            (
                "source: {simulate: site.yaml, gateway: shop, speed: wall, startFile: /run/site/start}",
                .simulate(path: "site.yaml", speed: nil, gateway: "shop", onWallClock: true, startFile: "/run/site/start")
            ),
        ])
    func sources(yaml: String, expected: SourceDefinition) throws {
        #expect(try Self.parse(yaml).source == expected)
    }

    @Test(
        "mistakes are located by line and say what would be right",
        arguments: [
            ("source: radio:hci0\n", "gw.yaml:1", "unknown source 'radio'"),
            ("sinks:\n  - {type: webhook, url: ftp://x}\n", "gw.yaml:2", "is not an http:// or https:// URL"),
            ("sinks:\n  - type: jsonl\n    pth: out.jsonl\n", "gw.yaml:3", "unknown key 'pth'"),
            ("sinks:\n  - {type: kafka}\n", "gw.yaml:2", "is not one of: jsonl, webhook, exec, mqtt"),
            ("sinks:\n  - {type: exec}\n", "gw.yaml:2", "missing 'command'"),
            ("sinks:\n  - {type: jsonl}\n  - {type: jsonl, path: -}\n", "gw.yaml:3", "two sinks are named 'jsonl:-'"),
            ("source: {replay: a.pcap, speed: 0}\n", "gw.yaml:1", "speed must be max or a positive factor"),
            ("source:\n  hci: hci0\n  interval: 50ms\n  window: 100ms\n", "gw.yaml:3", "longer than the interval"),
            ("source:\n  hci: hci0\n  interval: 1ms\n", "gw.yaml:3", "outside 2.5 ms"),
            ("source:\n  replay: a.pcap\n  record: b.btsnoop\n", "gw.yaml:3", "record applies to a radio"),
            ("source: {hci: hci0, actve: true}\n", "gw.yaml:1", "unknown key 'actve'"),
            ("source: {replay: a.pcap, gateway: hall}\n", "gw.yaml:1", "gateway applies to simulate"),
            ("source:\n  hci: hci0\n  resume: true\n", "gw.yaml:3", "resume applies to simulate and replay"),
            ("source: {replay: a.pcap, resume: sometimes}\n", "gw.yaml:1", "expected true or false"),
            ("source: {replay: a.pcap, speed: wall}\n", "gw.yaml:1", "speed"),
            ("source: {simulate: s.yaml, startFile: go}\n", "gw.yaml:1", "startFile holds a scenario on the wall clock"),
            ("source: {replay: a.pcap, startFile: go}\n", "gw.yaml:1", "startFile applies to simulate with speed: wall"),
            ("source: simulate:s.yaml\nhub: {room: {margin: 3}}\n", "gw.yaml:2", "a hub needs its gateways"),
            (
                "gateways:\n  - {id: g, room: r, position: [0, 0, 2]}\nhub:\n  floorPlan: {image: /no/plan.png, min: [0, 0], max: [9, 9]}\n",
                "gw.yaml:4", "cannot read the floor plan image /no/plan.png"
            ),
            (
                "gateways:\n  - {id: g, room: r, position: [0, 0, 2]}\nhub:\n  floorPlan: {image: /dev/null, min: [5, 0], max: [1, 9]}\n",
                "gw.yaml:4", "must be above and right of its min"
            ),
            (
                "alerts:\n  - id: a\n    strategy: enter\n    callback: not a url at all\n", "gw.yaml:4",
                "callback 'not a url at all' is not an http:// or https:// URL"
            ),
            (
                "alerts:\n  - id: a\n    strategy: enter\n    callback: http://127.0.0.1:1/x\n    callbackError: \"https:///x\"\n",
                "gw.yaml:5", "callbackError 'https:///x' is not an http:// or https:// URL"
            ),
            (
                "source: hci\nsinks:\n  - {type: jsonl}\nalerts:\n  - id: a\n    strategy: enter\n    callback: http://127.0.0.1:1/x\n",
                "gw.yaml:7", "alert 'a' has callbacks, but no sink sends them"
            ),
            ("sinks:\n  - {type: exec, command: x, timeout: 0s}\n", "gw.yaml:2", "timeout must be positive"),
            ("stat: x.sqlite\n", "gw.yaml:1", "did you mean 'state'?"),
            ("http: {listen: 9464}\n", "gw.yaml:1", "is not HOST:PORT"),
            ("http: {listen: \"127.0.0.1:70000\"}\n", "gw.yaml:1", "is not HOST:PORT"),
            ("http: maybe\n", "gw.yaml:1", "is not on, off or {listen: HOST:PORT}"),
            ("sinks:\n  - {type: mqtt, password: x}\n", "gw.yaml:2", "a password needs a username"),
            ("sinks:\n  - {type: mqtt, tls: {cert: c.pem}}\n", "gw.yaml:2", "missing 'ca'"),
            ("sinks:\n  - {type: mqtt, tls: {ca: a.pem, cert: c.pem}}\n", "gw.yaml:2", "give both 'cert' and 'key'"),
            ("sinks:\n  - {type: mqtt, gateway: a/b}\n", "gw.yaml:2", "cannot be used in MQTT topics"),
            ("sinks:\n  - {type: mqtt, beacons: false, homeAssistant: true}\n", "gw.yaml:2", "needs 'beacons: true'"),
            ("sinks:\n  - {type: mqtt, commands: {}}\n", "gw.yaml:2", "give commands.keys or commands.tokens"),
            ("sinks:\n  - {type: mqtt, commands: {keys: {nurse: {key: abc}}}}\n", "gw.yaml:2", "a key must be 32 to 128"),
            ("sinks:\n  - {type: mqtt, commands: {keys: {nurse: {}}}}\n", "gw.yaml:2", "give key: or keyFile:"),
            ("sinks:\n  - {type: mqtt, commands: {keys: {\"a b\": {key: x}}}}\n", "gw.yaml:2", "a key's name is 1–64"),
            ("sinks:\n  - {type: mqtt, commands: {tokens: {ha: short}}}\n", "gw.yaml:2", "a token is at least 16"),
            ("sinks:\n  - {type: mqtt, commands: {users: {}}}\n", "gw.yaml:2", "users"),
            ("site: {name: s, broker: {keepAlive: 2s}}\n", "gw.yaml:1", "a keep-alive is 5s to 1h"),
            ("http: {listen: \"0.0.0.0:9464\"}\n", "gw.yaml:1", "is reachable from other machines and has no token"),
            ("http: {listen: \"[::]:9464\"}\n", "gw.yaml:1", "set 'tokenFile: PATH'"),
            ("http: {token: short}\n", "gw.yaml:1", "at least 16 printable characters"),
            ("http: {token: 0123456789abcdef, tokenFile: t}\n", "gw.yaml:1", "not both"),
            (
                "http: {tokenFile: /nonexistent/control.token}\n", "gw.yaml:1",
                "cannot read the token file /nonexistent/control.token"
            ),
        ])
    func mistakes(yaml: String, place: String, message: String) {
        #expect {
            try Self.parse(yaml)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix(place) && text.contains(message)
        }
    }

    @Test(
        "http: is off unless given; on means 127.0.0.1:9464; listen takes HOST:PORT (IPv6 in brackets)",
        arguments: [
            ("", nil),
            ("http: off\n", nil),
            ("http: on\n", ControlConfiguration(host: "127.0.0.1", port: 9464)),
            ("http: {}\n", ControlConfiguration(host: "127.0.0.1", port: 9464)),
            (
                "http: {listen: \"0.0.0.0:9100\", token: 0123456789abcdef0123}\n",
                ControlConfiguration(host: "0.0.0.0", port: 9100, token: "0123456789abcdef0123")
            ),
            (
                "http: {token: \"  0123456789abcdef  \"}\n",
                ControlConfiguration(host: "127.0.0.1", port: 9464, token: "0123456789abcdef")
            ),
            ("http: {listen: \"[::1]:0\"}\n", ControlConfiguration(host: "::1", port: 0)),
        ] as [(String, ControlConfiguration?)])
    func control(yaml: String, expected: ControlConfiguration?) throws {
        #expect(try Self.parse(yaml).control == expected)
    }

    @Test("loopback addresses are told apart from the others")
    func loopback() {
        #expect(ControlConfiguration(host: "127.0.0.1").isLoopback)
        #expect(ControlConfiguration(host: "::1").isLoopback)
        #expect(ControlConfiguration(host: "localhost").isLoopback)
        #expect(!ControlConfiguration(host: "0.0.0.0").isLoopback)
        #expect(!ControlConfiguration(host: "192.168.1.2").isLoopback)
    }

    @Test("an mqtt sink's credentials, TLS, status, beacon state and Home Assistant discovery")
    func mqttSettings() throws {
        let config = try Self.parse(
            """
            sinks:
              - type: mqtt
                host: broker.local
                port: 8883
                gateway: hall
                username: beacond
                password: s3cret
                tls: {ca: /etc/beacond/ca.pem, cert: client.pem, key: client.key}
                homeAssistant: {prefix: ha}
              - {type: mqtt, name: plain, gateway: hall, status: false, beacons: false}
            """)
        guard let secure = config.sinks[0].settings as? MQTTSinkSettings,
            let plain = config.sinks[1].settings as? MQTTSinkSettings
        else {
            Issue.record("expected two mqtt sinks, got \(config.sinks)")
            return
        }
        #expect(secure.host == "broker.local")
        #expect(secure.port == 8883)
        #expect(secure.topic == "beacond/hall/alerts")
        #expect(secure.connection.username == "beacond")
        #expect(secure.connection.password == "s3cret")
        #expect(secure.connection.tls == .init(caFile: "/etc/beacond/ca.pem", certFile: "client.pem", keyFile: "client.key"))
        #expect(secure.connection.statusTopic == "beacond/hall/status")
        #expect(secure.beaconState)
        #expect(secure.beaconTopicPrefix == "beacond/hall/beacons")
        #expect(secure.homeAssistantPrefix == "ha")
        #expect(plain.connection.statusTopic == nil)
        #expect(!plain.beaconState)
        #expect(plain.homeAssistantPrefix == nil)
        #expect(plain.connection.tls == nil && plain.connection.username == nil)
    }
}
