import BeaconConfiguration
import BeaconControl
import BeaconCore
import BeaconDaemonConfiguration
import BeaconDevices
import BeaconOfflineRuns
import BeaconPipeline
import BeaconSimulator
import BeaconStrategies
import BeaconTestSupport
import Foundation
import Testing

/// People on a site: the bundled shop with two of its visitors named as people, one carrying two
/// badges. The hub places each person from what they carry, `/api/site` lists them (schema-valid)
/// and their rooms' people, and `match: {person: …}` selects what a person carries.
@Suite("People on a site")
struct PeopleSiteTests {
    static let uuid = "6E0C5A2B-3F1D-4C8E-9B7A-1D2E3F405162"
    static let alerts = """
        beacons:
          - {id: "ibeacon:\(uuid):1:1", name: Ann's badge}
          - {id: "ibeacon:\(uuid):1:2", name: Ann's keys}
          - {id: "ibeacon:\(uuid):1:3", name: Bo's badge}
        people:
          - {name: Ann, devices: [Ann's badge, Ann's keys]}
          - {name: Bo, devices: ["ibeacon:\(uuid):1:3"]}
        alerts:
          - {id: ann-in-the-shop, match: {person: Ann}, strategy: time, parameters: {dwell: 20s, room: shop}}
        """

    static func configuration() throws -> GatewayConfiguration {
        try GatewayConfiguration(node: ConfigNode(yaml: alerts, file: "site.alerts.yaml"))
    }

    @Test("people: resolves names and ids; match: {person: Ann} selects both her badges and nothing of Bo's")
    func configuration() throws {
        let configuration = try Self.configuration()
        #expect(configuration.people.map(\.name) == ["Ann", "Bo"])
        #expect(configuration.people[0].members.count == 2)
        let match = configuration.alerts[0].match
        #expect(match.matches(BeaconID("ibeacon:\(Self.uuid):1:1")!) && match.matches(BeaconID("ibeacon:\(Self.uuid):1:2")!))
        #expect(!match.matches(BeaconID("ibeacon:\(Self.uuid):1:3")!))
    }

    @Test(
        "a person named twice, carrying nothing known, or sharing a device, and an unknown person matched, are errors",
        arguments: [
            ("people: [{name: A, devices: [nobody]}]", "'nobody' is neither an enrolled device"),
            ("people: [{name: A, devices: []}]", "carries at least one"),
            (
                "beacons: [{id: \"ibeacon:\(uuid):1:1\", name: x}]\npeople: [{name: A, devices: [x]}, {name: B, devices: [x]}]",
                "already A's"
            ),
            ("alerts: [{id: a, match: {person: Zoe}, strategy: enter}]", "no person is named 'Zoe'"),
        ])
    func refused(yaml: String, expected: String) {
        #expect {
            try GatewayConfiguration(node: ConfigNode(yaml: yaml, file: "p.yaml"))
        } throws: { error in
            "\(error)".contains(expected)
        }
    }

    @Test("the hub places each person where what they carry is; /api/site lists them and each room's people")
    func placedOnTheSite() async throws {
        var scenario = try Scenario.load(path: TestPaths.scenario("site"))
        // Four minutes in: Ann (visitors 1 and 2's badges) and Bo (visitor 3's) are inside.
        scenario.duration = .seconds(240)
        let configuration = try Self.configuration()
        let site = try SiteSimulation(
            scenario: scenario, alerts: try configuration.pipelineAlerts(), registry: .builtIn(),
            beacons: configuration.beacons, people: configuration.people)
        _ = try site.run(emit: { _ in })
        let inspection = site.hub.inspect()
        #expect(inspection.people.map(\.person) == ["Ann", "Bo"])
        for (place, person) in zip(inspection.people, configuration.people) {
            #expect(place.present, "\(place)")
            let by = try #require(place.by, "\(place)")
            #expect(person.members.contains(by))
            // The room is the deciding member's room on the hub.
            #expect(place.room == inspection.beacons.first { $0.id == by }?.room, "\(place)")
        }
        let board = StatusBoard(
            sources: .init(sourceName: "hub", inspect: { inspection }, outbox: { [] }), log: AlertLog(sinks: []),
            refreshInterval: .zero)
        let document = await StatusRoutesTests.get("/api/site", StatusEndpointTests.routes(token: nil, board: board)).body
        let ann = inspection.people[0]
        #expect(document.contains(#"{"name":"Ann","present":true,"room":"\#(ann.room!)","by":"\#(ann.by!)"}"#), "\(document)")
        #expect(document.contains(#""name":"\#(ann.room!)","occupancy""#))
        let roomPeople = inspection.people.filter { $0.room == ann.room }.map { "\"\($0.person)\"" }.joined(separator: ",")
        #expect(document.contains(#""people":[\#(roomPeople)]"#), "\(document)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("people-site-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await StatusPageTests.validate(document, as: "site", in: directory)
    }
}
