import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconPipeline
import BeaconRanging
import BeaconStrategies
import BeaconStrategyKit
import Foundation
import Testing

/// Regions as facts alerts use: the `region` strategy fires on a region's entries or exits, and
/// an Eddystone region with an `instance` holds that instance only.
@Suite("Region alerts")
struct RegionAlertTests {
    /// The beacon advertises 0–10 s and 30–40 s (last sightings 9.5 s and 39.5 s); the lobby's
    /// exit timeout is 5 s. Entries at the first sighting: reported with the cycles ending at
    /// 1 s and 31 s. Exits at the first boundary ≥ last sighting + 5 s: 15 s and 45 s.
    static let yaml = """
        ranging:
          regions: [{id: lobby, match: {uuid: \(Timeline.uuid.uuidString)}, exitTimeout: 5s}]
        alerts:
          - {id: in, strategy: region, parameters: {region: lobby}}
          - {id: out, strategy: region, parameters: {region: lobby, on: exit}}

        """

    static func run(_ yaml: String, _ timeline: Timeline, until end: Double = 120) throws -> [AlertEvent] {
        let pipeline = try AlertPipeline(configuration: GatewayConfiguration(node: ConfigNode(yaml: yaml)), registry: .builtIn())
        return try StrategyContractTests.feed(pipeline, timeline.sightings, until: end)
    }

    @Test("every entry and every exit of the region alerts")
    func enterAndExit() throws {
        let events = try Self.run(Self.yaml, Timeline(present: [(0, 10), (30, 40)])).filter { $0.kind == .delivered }
        #expect(events.filter { $0.alertID == "in" }.map { ($0.time - Timeline.start).components.seconds } == [1, 31])
        #expect(events.filter { $0.alertID == "out" }.map { ($0.time - Timeline.start).components.seconds } == [15, 45])
    }

    @Test("a region strategy inside all-of: entering the lobby close enough")
    func inComposite() throws {
        let yaml = """
            ranging:
              regions: [{id: lobby, match: {uuid: \(Timeline.uuid.uuidString)}}]
            alerts:
              - id: close-entry
                strategy: all-of
                parameters: {of: [{strategy: region, region: lobby}, {strategy: rssi, threshold: -70, cycles: 1}]}

            """
        let events = try Self.run(yaml, Timeline(present: [(0, 10)])).filter { $0.kind == .delivered }
        #expect(events.map { ($0.time - Timeline.start).components.seconds } == [1])
    }

    @Test(
        "a region that is not configured is an error naming the alert and the known regions",
        arguments: [
            "{id: in, strategy: region, parameters: {region: lobyy}}",
            "{id: in, strategy: cooldown, parameters: {period: 1m, of: [{strategy: any-of, of: [{strategy: region, region: lobyy}]}]}}",
        ])
    func unknownRegion(_ alert: String) {
        let yaml = "ranging:\n  regions: [{id: lobby}]\nalerts:\n  - \(alert)\n"
        #expect {
            try Self.run(yaml, Timeline(present: []))
        } throws: { error in
            "\(error)".contains("alert 'in'") && "\(error)".contains("region 'lobyy'") && "\(error)".contains("known: lobby")
        }
    }

    @Test("an Eddystone region with an instance holds that instance only")
    func eddystoneInstance() throws {
        let configuration = try GatewayConfiguration(
            node: ConfigNode(
                yaml: """
                    ranging:
                      regions: [{id: poster, match: {namespace: 0102030405060708090a, instance: 0000000000aa}}]

                    """))
        let region = try #require(configuration.ranging.regions.first)
        let poster = BeaconID.eddystoneUID(namespaceHigh: 0x0102, namespaceLow: 0x0304_0506_0708_090A, instance: 0xAA)
        let other = BeaconID.eddystoneUID(namespaceHigh: 0x0102, namespaceLow: 0x0304_0506_0708_090A, instance: 0xAB)
        #expect(region.match == .eddystone(namespace: "0102030405060708090a", instance: "0000000000aa"))
        #expect(region.contains(poster))
        #expect(!region.contains(other))
    }
}
