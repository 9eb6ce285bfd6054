import BeaconCore
import BeaconSimulator
import Foundation
import Testing

/// Sites in scenarios: rooms, the gateways' rooms, the truth of stays and positions, and the
/// scoring of presence lines against it.
@Suite("Simulated sites: rooms and their truth")
struct SiteTruthTests {
    /// A walker dwells 15 s at (4, 5) in the hall, walks 11 m at 1 m/s to (15, 5) — crossing into
    /// the shop at x = 10, 6 s later — and dwells 15 s there; it leaves at 41 s.
    static let yaml = """
        name: two-rooms
        start: 2025-01-01T10:00:00Z
        duration: 50s
        rooms:
          - {name: hall, area: {min: [0, 0], max: [10, 10]}}
          - {name: shop, area: {min: [20, 10], max: [10, 0]}}
        gateways:
          - {name: hall-a, position: [1, 1, 2.5]}
          - {name: door, position: [10, 5, 2.5], room: shop}
          - {name: outside, position: [30, 5, 2.5]}
        walkers:
          - {name: visitor, speed: 1.0, dwell: 15s, waypoints: [[4, 5, 1.2], [15, 5, 1.2]]}
        beacons:
          - {name: visitor-tag, ibeacon: {uuid: 0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A, major: 1, minor: 1}, carried_by: visitor}
          - {name: desk-tag, ibeacon: {uuid: 0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A, major: 1, minor: 2}, position: [3, 8, 1.2]}
        """

    static var start: Timestamp { Timestamp(rfc3339: "2025-01-01T10:00:00Z")! }

    @Test("rooms: a gateway's room is the one its position falls in unless it names one; outside every room it has none")
    func gatewayRooms() throws {
        let scenario = try Scenario.parse(yaml: Self.yaml)
        #expect(scenario.isSite)
        #expect(scenario.rooms.map(\.name) == ["hall", "shop"])
        // The corners of the shop were given in the wrong order: the rectangle is the same.
        #expect(scenario.rooms[1].minimum == Vector3(10, 0, 0) && scenario.rooms[1].maximum == Vector3(20, 10, 0))
        #expect(scenario.gateways.map(\.room) == ["hall", "shop", nil])
        #expect(scenario.room(at: Vector3(15, 5, 1)) == "shop")
        #expect(scenario.room(at: Vector3(25, 5, 1)) == nil)
        #expect(try Scenario.parse(yaml: "duration: 1s\ngateways: [{name: g, position: [0, 0]}]\nbeacons: []\n").isSite == false)
    }

    @Test(
        "bad rooms are refused at their line: a room named twice, a flat area, a gateway naming an unknown room",
        arguments: [
            (
                "  - {name: hall, area: {min: [0, 0], max: [10, 10]}}\n  - {name: hall, area: {min: [10, 0], max: [20, 10]}}\n",
                "listed twice"
            ),
            ("  - {name: hall, area: {min: [0, 0], max: [0, 10]}}\n", "a rectangle with an area"),
            ("  - {name: hall, area: {min: [0, 0], max: [10, 10]}, door: 3}\n", "door"),
        ])
    func badRooms(rooms: String, message: String) {
        let yaml = "duration: 10s\nrooms:\n\(rooms)gateways: [{name: g, position: [1, 1]}]\nbeacons: []\n"
        #expect { try Scenario.parse(yaml: yaml, file: "s.yaml") } throws: {
            "\($0)".contains(message) && "\($0)".contains("s.yaml:")
        }
        let unknown =
            "duration: 10s\nrooms: [{name: hall, area: {min: [0, 0], max: [10, 10]}}]\n"
            + "gateways: [{name: g, position: [1, 1], room: cellar}]\nbeacons: []\n"
        #expect { try Scenario.parse(yaml: unknown) } throws: { "\($0)".contains("cellar") && "\($0)".contains("hall") }
    }

    @Test("stays: the walker is in the hall 0–21 s and in the shop 21–41 s; the desk tag in the hall throughout")
    func stays() throws {
        let scenario = try Scenario.parse(yaml: Self.yaml)
        let stays = SiteTruth(scenario: scenario).stays()
        #expect(stays.count == 3)
        // Room changes are found to a tenth of the 1 s sample, and a room's edge is its own: at
        // x = 10 the walker is still in the hall (listed first), so the shop begins at 21.1 s.
        let tolerance = Duration.milliseconds(150)
        func near(_ a: Timestamp, _ seconds: Double) -> Bool {
            abs((a - Self.start).secondsValue - seconds) <= tolerance.secondsValue
        }
        #expect(stays[0].beaconIndex == 0 && stays[0].room == "hall" && near(stays[0].from, 0) && near(stays[0].to, 21))
        #expect(stays[1].beaconIndex == 0 && stays[1].room == "shop" && near(stays[1].from, 21) && near(stays[1].to, 41))
        #expect(stays[2].beaconIndex == 1 && stays[2].room == "hall" && near(stays[2].from, 0) && near(stays[2].to, 50))
        // Walking through a room is not staying: with a 25 s minimum the hall visit (21 s) is no stay.
        let long = SiteTruth(scenario: scenario, minimumStay: .seconds(25)).stays()
        #expect(long.map(\.room) == ["hall"] && long[0].beaconIndex == 1)
    }

    @Test("positions: one per second while on site, on the walker's path")
    func positions() throws {
        let scenario = try Scenario.parse(yaml: Self.yaml)
        var walker: [(Timestamp, Vector3)] = []
        SiteTruth(scenario: scenario).forEachPosition { beacon, time, position in
            if beacon == 0 { walker.append((time, position)) }
        }
        #expect(walker.count == 42) // 0…41 s; it leaves after its last dwell
        #expect(walker[0].1 == Vector3(4, 5, 1.2))
        #expect(abs(walker[18].1.x - 7) < 1e-9) // 3 s into the walk
        #expect(walker[41].1 == Vector3(15, 5, 1.2))
    }

    @Test("the truth file of a site holds stay and position lines that score a perfect presence file as perfect")
    func scoringRoundTrip() throws {
        let scenario = try Scenario.parse(yaml: Self.yaml)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("site-truth-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let truthPath = directory.appendingPathComponent("truth.jsonl").path
        try GroundTruth(scenario: scenario).write(toFile: truthPath)
        let truth = try String(contentsOfFile: truthPath, encoding: .utf8)
        #expect(
            truth.contains(
                #""type":"stay","beacon":"visitor-tag","id":{"uuid":"0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A","major":1,"minor":1},"room":"shop""#
            ))
        // Presence lines at the true room and position of both beacons, interleaved per cycle as a
        // hub writes them: perfect scores (each beacon's truth is looked up on its own).
        var presence = ""
        var time = Self.start + .milliseconds(500)
        while time < scenario.end {
            for (index, beacon) in scenario.beacons.enumerated() {
                guard let p = scenario.position(of: beacon, at: time), let room = scenario.room(at: p) else { continue }
                let id = index == 0 ? 1 : 2
                presence +=
                    #"{"time":"\#(time.rfc3339String)","beacon":{"uuid":"0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A","major":1,"minor":\#(id)},"room":"\#(room)","position":{"x":\#(p.x),"y":\#(p.y),"z":\#(p.z),"error":0.5}}"#
                presence += "\n"
            }
            time = time + .seconds(1)
        }
        let presencePath = directory.appendingPathComponent("presence.jsonl").path
        try presence.write(toFile: presencePath, atomically: true, encoding: .utf8)
        let report = try SiteScoring.score(presence: presencePath, truth: truthPath)
        #expect(report.roomAccuracy == 1)
        #expect(report.roomSamples == 91) // 41 of the walker, 50 of the desk tag
        #expect(report.flaps == 0)
        #expect((report.medianPositionError ?? 1) < 1e-6 && (report.p90PositionError ?? 1) < 1e-6)
        // A presence file that swaps the rooms of the two tags is wrong whenever they differ.
        let swapped = presence.replacingOccurrences(of: #""minor":1}"#, with: "MINOR2").replacingOccurrences(
            of: #""minor":2}"#, with: #""minor":1}"#
        ).replacingOccurrences(of: "MINOR2", with: #""minor":2}"#)
        try swapped.write(toFile: presencePath, atomically: true, encoding: .utf8)
        let wrong = try SiteScoring.score(presence: presencePath, truth: truthPath)
        #expect((wrong.roomAccuracy ?? 1) < 0.9)
        #expect((wrong.medianPositionError ?? 0) > 1)
    }
}
