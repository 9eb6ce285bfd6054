import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconPipeline
import BeaconRanging
import BeaconStrategies
import Foundation
import Testing

@testable import BeaconGateway

/// `beacons: [{id, name, tags}]`: read and checked, matched by tag, and carried into events.
@Suite("Named beacons")
struct NamedBeaconsTests {
    static let anna = "ibeacon:0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A:1:1"
    static let ben = "0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A:1:2" // a bare UUID:major:minor is an iBeacon
    static let poster = "eddystone-uid:0102030405060708090a:0000000000aa"

    static let example = """
        beacons:
          - {id: \(anna), name: "Anna's badge", tags: [staff, first-aid]}
          - {id: \(ben), name: Ben, tags: [staff]}
          - {id: \(poster), name: Poster}
        alerts:
          - {id: staff-in, match: {tag: staff}, strategy: enter}
          - {id: aid, match: {tag: first-aid}, strategy: enter}
        ranging:
          regions:
            - {id: staff-zone, match: {tag: staff}}
        """

    @Test("names, tags and every id form are read; a tag selects exactly its beacons, in alerts and regions")
    func readsAndMatches() throws {
        let configuration = try GatewayConfiguration(node: ConfigNode(yaml: Self.example, file: "gw.yaml"))
        let anna = try #require(BeaconID(Self.anna))
        let ben = try #require(BeaconID(Self.ben))
        let poster = try #require(BeaconID(Self.poster))
        let stranger = BeaconID.iBeacon(uuid: anna.uuid, major: 1, minor: 3)
        #expect(configuration.beacons.beacons.map(\.name) == ["Anna's badge", "Ben", "Poster"])
        #expect(configuration.beacons[anna]?.tags == ["staff", "first-aid"])
        #expect(configuration.beacons[poster]?.tags == [])
        #expect(configuration.beacons[stranger] == nil)
        let staff = configuration.alerts[0].match
        #expect(staff.matches(anna) && staff.matches(ben))
        #expect(!staff.matches(poster) && !staff.matches(stranger))
        let aid = configuration.alerts[1].match
        #expect(aid.matches(anna) && !aid.matches(ben))
        #expect(configuration.ranging.regions[0].match.matches(ben))
        #expect(!configuration.ranging.regions[0].match.matches(stranger))
        #expect(staff.description == "beacons tagged staff")
    }

    @Test(
        "bad entries are refused at file:line with what to write",
        arguments: [
            ("beacons:\n  - {id: nope, name: A}\n", "gw.yaml:2", "'nope' is not a beacon id"),
            (
                "beacons:\n  - {id: \(NamedBeaconsTests.anna), name: A}\n  - {id: \(NamedBeaconsTests.anna), name: B}\n",
                "gw.yaml:3", "is named twice (first as 'A')"
            ),
            ("beacons:\n  - {id: \(NamedBeaconsTests.anna), name: A, colour: red}\n", "gw.yaml:2", "colour"),
            ("beacons:\n  - {id: \(NamedBeaconsTests.anna)}\n", "gw.yaml:2", "name"),
            ("beacons:\n  - {id: \(NamedBeaconsTests.anna), name: \" \"}\n", "gw.yaml:2", "must not be empty"),
            (
                "beacons:\n  - {id: \(NamedBeaconsTests.anna), name: A}\n  - {id: \(NamedBeaconsTests.ben), name: A}\n",
                "gw.yaml:3", "two beacons are named 'A'"
            ),
            ("beacons:\n  - {id: \(NamedBeaconsTests.anna), name: A, tags: [\"a b\"]}\n", "gw.yaml:2", "'a b' is not a tag"),
            ("beacons: {id: \(NamedBeaconsTests.anna)}\n", "gw.yaml:1", "a list of named beacons"),
            (
                "beacons:\n  - {id: \(NamedBeaconsTests.anna), name: A, tags: [staff]}\nalerts:\n  - {id: x, match: {tag: staf}, strategy: enter}\n",
                "gw.yaml:4", "no beacon under beacons: has the tag 'staf'; tags: staff"
            ),
            (
                "alerts:\n  - {id: x, match: {tag: staff, uuid: \(UUID().uuidString)}, strategy: enter}\n", "gw.yaml:2",
                "either tag or 'uuid'"
            ),
            (
                "ranging:\n  regions:\n    - {id: r, match: {tag: staff}}\n", "gw.yaml:3",
                "no beacon under beacons: has the tag 'staff'"
            ),
        ])
    func errors(yaml: String, place: String, what: String) {
        do {
            _ = try GatewayConfiguration(node: ConfigNode(yaml: yaml, file: "gw.yaml"))
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.description.hasPrefix(place), "\(error)")
            #expect(error.description.contains(what), "\(error)")
        }
    }

    @Test("a named beacon's events carry its name and tags in the JSON line; an unknown beacon's do not")
    func eventsAreLabelled() throws {
        let configuration = try GatewayConfiguration(node: ConfigNode(yaml: Self.example, file: "gw.yaml"))
        let anna = try #require(BeaconID(Self.anna))
        let time = try #require(Timestamp(rfc3339: "2025-01-01T09:00:00.000Z"))
        let event = AlertEvent(kind: .delivered, alertID: "staff-in", beacon: anna, strategy: "enter", time: time)
        let named = configuration.beacons.labelled(event)
        #expect(
            named.jsonLine.hasPrefix(
                #"{"event":"delivered","alert":"staff-in","beacon":{"uuid":"0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A","major":1,"minor":1},"name":"Anna's badge","tags":["staff","first-aid"],"strategy":"enter""#
            ), "\(named.jsonLine)")
        #expect(named.idempotencyKey == event.idempotencyKey)
        let stranger = AlertEvent(
            kind: .delivered, alertID: "staff-in", beacon: .iBeacon(uuid: anna.uuid, major: 9, minor: 9), strategy: "enter",
            time: time)
        #expect(!configuration.beacons.labelled(stranger).jsonLine.contains(#""name""#))
    }

    @Test("the pipeline a configuration builds labels what it emits")
    func pipelineLabels() throws {
        let configuration = try GatewayConfiguration(node: ConfigNode(yaml: Self.example, file: "gw.yaml"))
        let pipeline = try AlertPipeline(configuration: configuration, registry: .builtIn())
        #expect(pipeline.beacons == configuration.beacons)
        #expect(pipeline.inspect().directory.beacons.count == 3)
    }

    @Test("remotely administered alerts select by the local file's tags; a tag it does not have is refused")
    func remoteTags() throws {
        let configuration = try GatewayConfiguration(
            node: ConfigNode(
                yaml:
                    "beacons:\n  - {id: \(Self.anna), name: Anna, tags: [staff]}\nalerts: {url: \"https://example.org/a.yaml\"}\n",
                file: "gw.yaml"))
        let beacons = try #require(configuration.remoteAlerts?.beacons)
        let remote = "alerts:\n  - {id: staff-in, match: {tag: staff}, strategy: enter}\n"
        let alerts = try RemoteAlertDefinitions.parse(remote, file: "a.yaml", beacons: beacons)
        #expect(alerts.first?.match.matches(try #require(BeaconID(Self.anna))) == true)
        #expect(throws: ConfigurationError.self) {
            try RemoteAlertDefinitions.parse(
                remote.replacingOccurrences(of: "staff}", with: "guests}"), file: "a.yaml", beacons: beacons)
        }
    }
}
