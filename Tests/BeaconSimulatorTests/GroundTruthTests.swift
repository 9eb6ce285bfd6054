import BeaconCore
import BeaconSimulator
import Foundation
import Testing

@Suite("Ground truth")
struct GroundTruthTests {
    @Test("lobby: visitor 1 has one visit of 92 s within 3 m; visitor 2 none")
    func lobbyVisits() throws {
        let scenario = try Scenario.load(path: TestSupport.scenarioPath("lobby.yaml"))
        let truth = GroundTruth(scenario: scenario, definition: VisitDefinition(radius: 3, minimumDuration: .seconds(60)))
        let visits = truth.visits()
        // Visitor 1 walks from x = 6 to x = 1 at 1.2 m/s (the desk is at x = 0): within 3 m from
        // t = 2.5 s (first whole-second sample t = 3 s, x = 2.4), dwells to 94.17 s, back past
        // x = 3 at 95.83 s (last sample t = 95 s, x = 2.0). The fixed beacons are > 3 m away.
        #expect(visits.count == 1)
        let visit = try #require(visits.first)
        #expect(scenario.beacons[visit.beaconIndex].name == "visitor-1")
        #expect(visit.start == Timestamp(rfc3339: "2025-01-01T09:00:03Z"))
        #expect(visit.end == Timestamp(rfc3339: "2025-01-01T09:01:35Z"))
        #expect(visit.duration >= .seconds(90))
    }

    @Test("distances are the true geometry, nil when off site")
    func distances() throws {
        let scenario = try Scenario.load(path: TestSupport.scenarioPath("lobby.yaml"))
        let truth = GroundTruth(scenario: scenario)
        let at = { (s: Int64) in scenario.start + .seconds(s) }
        #expect(truth.distance(beacon: 0, gateway: 0, at: at(50)) == 1)
        #expect(truth.distance(beacon: 1, gateway: 0, at: at(10)) == nil) // visitor 2 arrives at 20 s
        #expect(truth.distance(beacon: 1, gateway: 0, at: at(25)) == 2) // at (0, 2, 1) after 5 s
        #expect(truth.distance(beacon: 2, gateway: 0, at: at(0)) == (64 + 4 + 2.25).squareRoot())
    }

    @Test("truth JSON lines carry the header, beacons, distances and the visit")
    func jsonLines() throws {
        let scenario = try Scenario.load(path: TestSupport.scenarioPath("lobby.yaml"))
        var lines: [String] = []
        try GroundTruth(scenario: scenario).writeJSONLines { lines.append($0) }
        #expect(lines[0].hasPrefix("{\"type\":\"header\",\"scenario\":\"lobby\""))
        #expect(lines.filter { $0.contains("\"type\":\"beacon\"") }.count == 5)
        #expect(
            lines.contains(
                "{\"type\":\"distance\",\"time\":\"2025-01-01T09:00:50.000Z\",\"beacon\":\"visitor-1\",\"gateway\":\"desk\",\"distance_m\":1.000}\n"
            ))
        let visits = lines.filter { $0.contains("\"type\":\"visit\"") }
        #expect(visits.count == 1)
        #expect(visits.first?.contains("\"start\":\"2025-01-01T09:00:03.000Z\",\"end\":\"2025-01-01T09:01:35.000Z\"") == true)
    }

    @Test("the truth file is written whole, the same lines as writeJSONLines; an unwritable path is an error naming it")
    func file() throws {
        // 20 beacons × 100 samples: more than one 64 KiB buffer of lines.
        let truth = GroundTruth(scenario: TestSupport.fixedScenario(count: 20, distance: 1, radio: RadioModel()))
        var lines: [String] = []
        try truth.writeJSONLines { lines.append($0) }
        let path = FileManager.default.temporaryDirectory.path + "/truth-\(UUID()).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try truth.write(toFile: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == lines.joined())
        #expect(lines.joined().utf8.count > 2 << 16)
        #expect(throws: GroundTruthError.unwritable(file: "/nonexistent-directory/t.jsonl", reason: "No such file or directory"))
        {
            try truth.write(toFile: "/nonexistent-directory/t.jsonl")
        }
        #expect(throws: GroundTruthError.unwritable(file: "/dev/full", reason: "No space left on device")) {
            try truth.write(toFile: "/dev/full")
        }
    }

    @Test("visit detector: runs within the radius, gaps and minimum duration")
    func detector() {
        var detector = VisitDetector(definition: VisitDefinition(radius: 3, minimumDuration: .seconds(5)))
        let t0 = TestSupport.start
        var found: [(Timestamp, Timestamp)] = []
        // Within 3 m from 2 s to 8 s, out at 9 s, in again 10–12 s (too short), off site at 13 s.
        let series: [Double?] = [5, 4, 2, 2, 3, 1, 2, 2, 2, 6, 1, 1, 1, nil, 1]
        for (second, distance) in series.enumerated() {
            if let v = detector.add(time: t0 + .seconds(Int64(second)), distance: distance) { found.append((v.start, v.end)) }
        }
        if let v = detector.finish() { found.append((v.start, v.end)) }
        #expect(found.count == 1)
        #expect(found.first?.0 == t0 + .seconds(2))
        #expect(found.first?.1 == t0 + .seconds(8))
    }
}
