import BeaconConfiguration
import BeaconDaemonConfiguration
import BeaconForeignNodes
import BeaconTestSupport
import Foundation
import Testing

/// `kind:`, `node:` and `topic:` in a hub's `gateways:` (issue 28): foreign nodes' topics, and a
/// mistake reported at its line with what to write.
@Suite("gateways[].kind: foreign nodes in a hub's configuration")
struct ForeignNodeConfigurationTests {
    static func hub(_ gateways: String) throws(ConfigurationError) -> HubSettings? {
        let yaml = "site: {name: home, broker: {host: 127.0.0.1, port: 1883}}\ngateways:\n" + gateways + "hub: {}\n"
        return try GatewayConfiguration(node: ConfigNode(yaml: yaml, file: "hub.yaml")).hub
    }

    @Test("each kind's topics: the room (ESPresense) or the id (OpenMQTTGateway, Theengs) unless node: says; topic: the prefix")
    func topics() throws {
        let hub = try #require(
            try Self.hub(
                """
                  - {id: gw-1, room: hall}
                  - {id: esp-office, kind: espresense, room: office}
                  - {id: esp-2, kind: espresense}
                  - {id: esp-3, kind: espresense, room: Living Room, node: living_room, topic: lab/espresense}
                  - {id: OpenMQTTGateway, kind: openmqttgateway, room: shop}
                  - {id: theengs-1, kind: theengs, node: TheengsGateway}

                """))
        #expect(hub.foreignNodes["gw-1"] == nil)
        #expect(hub.foreignNodes["esp-office"] == ForeignNodeEndpoint(kind: .espresense, name: "office"))
        #expect(hub.foreignNodes["esp-2"] == ForeignNodeEndpoint(kind: .espresense, name: "esp-2"))
        #expect(
            hub.foreignNodes["esp-3"] == ForeignNodeEndpoint(kind: .espresense, name: "living_room", prefix: "lab/espresense"))
        #expect(hub.foreignNodes["OpenMQTTGateway"]?.subscriptions == ["home/OpenMQTTGateway/BTtoMQTT/#"])
        #expect(hub.foreignNodes["theengs-1"] == ForeignNodeEndpoint(kind: .theengs, name: "TheengsGateway"))
        #expect(try hub.makeForeignNodes().map(\.gateway) == ["esp-office", "esp-2", "esp-3", "OpenMQTTGateway", "theengs-1"])
    }

    @Test(
        "mistakes, at their line",
        arguments: [
            ("  - {id: a, kind: esppresense}\n", "hub.yaml:3", "espresense"),
            ("  - {id: a, kind: espresense, keyFile: k.hex}\n", "hub.yaml:3", "cannot sign"),
            ("  - {id: a, node: office}\n", "hub.yaml:3", "foreign node"),
            ("  - {id: a, kind: espresense, room: Living Room}\n", "hub.yaml:3", "write node:"),
            ("  - {id: a, kind: theengs, topic: home/+}\n", "hub.yaml:3", "not a topic prefix"),
            ("  - {id: a, kind: espresense, room: x}\n  - {id: b, kind: espresense, node: x}\n", "hub.yaml:4", "same topics"),
        ])
    func mistakes(gateways: String, place: String, words: String) {
        #expect {
            _ = try Self.hub(gateways)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix(place) && text.contains(words)
        }
    }

    @Test("beacond check-config says how many of a hub's gateways are foreign nodes, of which kind")
    func checkConfig() async throws {
        let run = try await CheckConfigHubTests.check([
            "site: {name: home, broker: {host: 127.0.0.1, port: 1883}}",
            "gateways:",
            "  - {id: esp-office, kind: espresense, room: office}",
            "  - {id: esp-kitchen, kind: espresense, room: kitchen}",
            "  - {id: OpenMQTTGateway, kind: openmqttgateway, room: garage}",
            "  - {id: pi, room: hall}",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("4 gateways (2 espresense, 1 openmqttgateway) in 4 rooms"), "\(run.standardOutput)")
    }
}
