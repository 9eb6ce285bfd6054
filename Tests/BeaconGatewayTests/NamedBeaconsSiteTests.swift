import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconOfflineRuns
import BeaconSimulator
import BeaconStrategies
import Foundation
import Testing

/// A simulated site whose hub names one of its two beacons: the named one's presence lines and
/// alert carry its name and tags, and an alert by tag fires for it alone.
@Suite("Named beacons on a simulated site")
struct NamedBeaconsSiteTests {
    @Test("presence lines and the shop dwell alert (match: {tag: visitor}) carry the walker's name; the desk tag stays unnamed")
    func siteNames() throws {
        let start = try #require(Timestamp(rfc3339: "2025-01-01T09:00:00.000Z"))
        let scenario = try Scenario.parse(yaml: SiteProcessesTests.scenario(start: start))
        let configuration = try GatewayConfiguration(
            node: ConfigNode(
                yaml: """
                    beacons:
                      - {id: "ibeacon:0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A:1:1", name: Walker, tags: [visitor]}
                    alerts:
                      - {id: shop-dwell, match: {tag: visitor}, strategy: time, parameters: {dwell: 8s, room: shop}}
                    """, file: "alerts.yaml"))
        var lines: [String] = []
        let simulation = try SiteSimulation(
            scenario: scenario, alerts: try configuration.pipelineAlerts(), registry: .builtIn(),
            presence: { lines.append($0) }, beacons: configuration.beacons)
        var events: [AlertEvent] = []
        _ = try simulation.run { events.append($0.event) }

        let walker = lines.filter { $0.contains(#""minor":1}"#) }
        let desk = lines.filter { $0.contains(#""minor":2}"#) }
        #expect(!walker.isEmpty && !desk.isEmpty)
        #expect(
            walker.allSatisfy { $0.contains(#""minor":1},"name":"Walker","tags":["visitor"],"room":"#) }, "\(walker.first ?? "")")
        #expect(desk.allSatisfy { !$0.contains(#""name""#) }, "\(desk.first ?? "")")
        // The walker reaches the shop at about 21 s and dwells 8 s there: one alert, for him alone.
        let created = events.filter { $0.kind == .created }
        #expect(created.count == 1)
        #expect(created.first?.beaconName == "Walker" && created.first?.beacon.minor == 1)
        #expect(created.first?.beaconTags == ["visitor"])
    }
}
