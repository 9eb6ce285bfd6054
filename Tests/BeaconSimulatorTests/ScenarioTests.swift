import BeaconConfiguration
import BeaconCore
import BeaconSimulator
import BeaconWire
import Foundation
import FoundationEssentials
import Testing

@Suite("Scenario files")
struct ScenarioTests {
    @Test(
        "every bundled scenario loads",
        arguments: ["lobby.yaml", "museum.yaml", "warehouse.yaml", "stress.yaml", "gateway-load.yaml"])
    func bundledScenarioLoads(file: String) throws {
        let scenario = try Scenario.load(path: TestSupport.scenarioPath(file))
        #expect(!scenario.gateways.isEmpty)
        #expect(!scenario.beacons.isEmpty)
    }

    @Test("the lobby has what its file says")
    func lobbyContents() throws {
        let scenario = try Scenario.load(path: TestSupport.scenarioPath("lobby.yaml"))
        #expect(scenario.name == "lobby")
        #expect(scenario.start == Timestamp(rfc3339: "2025-01-01T09:00:00Z"))
        #expect(scenario.duration == .seconds(120))
        #expect(scenario.seed == 42)
        #expect(scenario.radio.shadowingSigma == 2)
        #expect(scenario.radio.packetLoss == 0.02)
        #expect(scenario.gateways.map(\.name) == ["desk"])
        #expect(scenario.gateways[0].position == Vector3(0, 0, 1))
        #expect(scenario.beacons.map(\.name) == ["visitor-1", "visitor-2", "entrance", "lift", "poster"])
        #expect(scenario.beacons[0].identity == .iBeacon(uuid: TestSupport.uuid, major: 1, minor: 1))
        #expect(scenario.beacons[1].placement == .carried(walkerIndex: 1))
        #expect(scenario.walkers[0].waypoints[1] == Walker.Waypoint(Vector3(1, 0, 1), dwell: .seconds(90)))
        #expect(scenario.walkers[1].start == .seconds(20))
        #expect(scenario.beacons[4].telemetry?.every == 10)
    }

    @Test("count expands groups with consecutive minors and one beacon per walker")
    func groupExpansion() throws {
        let scenario = try Scenario.load(path: TestSupport.scenarioPath("museum.yaml"))
        #expect(scenario.walkers.count == 30)
        #expect(scenario.walkers[1].name == "group-a-2")
        #expect(scenario.walkers[1].start == .seconds(20))
        let exhibits = scenario.beacons.filter { $0.name.hasPrefix("exhibit-") }
        #expect(exhibits.count == 24)
        #expect(exhibits[23].identity.beaconID.minor == 24)
        #expect(scenario.beacons.last?.placement == .carried(walkerIndex: 29))
        let warehouse = try Scenario.load(path: TestSupport.scenarioPath("warehouse.yaml"))
        #expect(warehouse.beacons.count == 10_004)
    }

    static let valid = """
        duration: 90s
        gateways:
          - name: gw
            position: [0, 0, 1]
        beacons:
          - name: b
            ibeacon: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 2}
            position: [1, 0, 1]
        """

    @Test("a minimal file gets the documented defaults")
    func defaults() throws {
        let scenario = try Scenario.parse(yaml: Self.valid)
        #expect(scenario.duration == .seconds(90))
        #expect(scenario.seed == 1)
        #expect(scenario.beacons[0].interval == .seconds(1))
        #expect(scenario.beacons[0].measuredPower == -59)
        #expect(scenario.gateways[0].scan == .continuous)
        #expect(scenario.gateways[0].reportKind == .legacy)
        #expect(scenario.radio == RadioModel())
    }

    /// (replace this text of the valid file, with this, expected line, expected message fragment)
    static let broken: [(String, String, Int, String)] = [
        ("duration: 90s", "duration: 90s\nspeed: 3", 2, "unknown key 'speed' in the scenario"),
        ("duration: 90s", "duration: ninety", 1, "duration: expected a duration"),
        ("duration: 90s\n", "", 1, "missing 'duration'"),
        ("    position: [0, 0, 1]", "    position: [0, 0]\n    report: fancy", 5, "expected legacy or extended"),
        ("    position: [0, 0, 1]", "    position: here", 4, "expected a position [x, y, z]"),
        ("major: 1,", "major: 70000,", 7, "expected an integer from 0 to 65535"),
        (
            "    position: [1, 0, 1]", "    position: [1, 0, 1]\n    interval: 1s\n    colour: red", 10,
            "unknown key 'colour' in a beacon"
        ),
        ("    position: [1, 0, 1]", "    carried_by: ghost", 8, "expected the name of a walker"),
        (
            "  - name: b\n", "  - name: b\n    area: {min: [0, 0, 0], max: [1, 1, 1]}\n", 7,
            "only one of position, area or carried_by"
        ),
        ("  - name: gw\n", "  - nam: gw\n", 3, "unknown key 'nam' in a gateway"),
        ("{uuid: 5A4BCFCE", "{uuid: not-a-uuid-5A4BCFCE", 7, "expected a UUID"),
        ("duration: 90s", "duration: 90s\nradio: {packet_loss: 1.5}", 2, "expected a probability from 0 to 1"),
        // Scan timing a controller would refuse (LE Set Scan Parameters: 2.5 ms … 10.24 s).
        (
            "    position: [0, 0, 1]", "    position: [0, 0, 1]\n    scan: {interval: 20s, window: 100ms}", 5,
            "expected a time from 2.5ms to 10240ms (the HCI range of LE Set Scan Parameters)"
        ),
        (
            "    position: [0, 0, 1]", "    position: [0, 0, 1]\n    scan: {interval: 100ms, window: 1ms}", 5,
            "the HCI range of LE Set Scan Parameters"
        ),
    ]

    @Test("each validation error names its line and what is expected", arguments: broken.indices)
    func validationError(case index: Int) throws {
        let (old, new, line, fragment) = Self.broken[index]
        let yaml = Self.valid.replacingOccurrences(of: old, with: new)
        #expect(yaml != Self.valid)
        do {
            _ = try Scenario.parse(yaml: yaml, file: "s.yaml")
            Issue.record("expected an error for case \(index)")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.column != nil, "\(error)")
            #expect(error.description.hasPrefix("s.yaml:\(line):\(error.column ?? 0): "), "\(error)")
            #expect(error.description.contains(fragment), "\(error)")
        }
    }

    @Test("invalid YAML reports the line of the syntax error")
    func syntaxError() {
        #expect(throws: ConfigurationError.self) { try Scenario.parse(yaml: "duration: [1, 2\ngateways: 3", file: "x.yaml") }
        do {
            _ = try Scenario.parse(yaml: "duration: 90s\ngateways: [\n", file: "x.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 3, "\(error)")
            #expect(error.description.hasPrefix("x.yaml:3:"), "\(error)")
            #expect(error.description.contains(": invalid YAML"), "\(error)")
        }
    }

    static let withWalkers = """
        duration: 10m
        gateways:
          - {name: gw, position: [0, 0, 1]}
        walkers:
          - name: group
            count: 3
            stagger: 30s
            waypoints: [[0, 0, 1], {at: [5, 0, 1], dwell: 1m}]
        beacons:
          - name: v
            ibeacon: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 10}
            carried_by: group
        """

    @Test("walker groups: one beacon per member, staggered starts, counting minors")
    func walkerGroups() throws {
        let scenario = try Scenario.parse(yaml: Self.withWalkers)
        #expect(scenario.walkers.map(\.name) == ["group-1", "group-2", "group-3"])
        #expect(scenario.walkers.map(\.start) == [.zero, .seconds(30), .seconds(60)])
        #expect(scenario.walkers[2].waypoints[1].dwell == .seconds(60))
        #expect(
            scenario.beacons.map(\.placement) == [.carried(walkerIndex: 0), .carried(walkerIndex: 1), .carried(walkerIndex: 2)])
        #expect(scenario.beacons.map { $0.identity.beaconID.minor } == [10, 11, 12])
    }

    @Test(
        "walker errors name their line",
        arguments: [
            ("    carried_by: group", "    carried_by: group\n    count: 2", 13, "a count equal to the walker group's count (3)"),
            ("waypoints: [[0, 0, 1], {at: [5, 0, 1], dwell: 1m}]", "waypoints: []", 8, "at least one waypoint"),
            ("    stagger: 30s", "    stagger: soon", 7, "expected a duration"),
            ("{at: [5, 0, 1], dwell: 1m}", "{at: [5, 0, 1], wait: 1m}", 8, "unknown key 'wait' in a waypoint"),
        ])
    func walkerErrors(old: String, new: String, line: Int, fragment: String) throws {
        let yaml = Self.withWalkers.replacingOccurrences(of: old, with: new)
        #expect(yaml != Self.withWalkers)
        #expect {
            try Scenario.parse(yaml: yaml, file: "w.yaml")
        } throws: { error in
            let error = error as? ConfigurationError
            return error?.line == line && error?.description.contains(fragment) == true
        }
    }
}
