import BeaconCore
import BeaconSimulator
import Foundation
import Testing

@Suite("Scoring")
struct ScoringTests {
    // Fixtures/score.*.jsonl, worked by hand (tolerance 30 s):
    // dwell: A@10:01:00 → A's first visit (10:00–10:02), latency 60 s; A@10:01:30 → that visit is
    // taken: false positive; A@10:11:40 → A's second visit (10:10–10:11:30, +30 s), latency 100 s;
    // B@10:08:00 → after B's visit end + 30 s (10:07:30): false positive. The "queued" line is
    // ignored. Precision 2/4, recall 2/3 (A, A, B visits share the UUID), p50 60 s, p90 100 s.
    // desk: C@10:21:15.5 → C's visit (10:20–10:25), latency 75.5 s: precision 1, recall 1/1.
    @Test("known answer on hand-written truth and alert files")
    func knownAnswer() throws {
        let visits = try Scoring.readVisits(path: TestSupport.fixturePath("score.truth.jsonl"))
        let alerts = try Scoring.readAlerts(path: TestSupport.fixturePath("score.alerts.jsonl"))
        #expect(visits.count == 4)
        #expect(alerts.count == 5)
        let scores = Scoring.score(alerts: alerts, visits: visits, tolerance: .seconds(30))
        #expect(scores.map(\.alertID) == ["desk", "dwell"])
        let desk = scores[0], dwell = scores[1]
        #expect(dwell.alerts == 4 && dwell.matchedAlerts == 2 && dwell.visits == 3)
        #expect(dwell.precision == 0.5)
        #expect(abs(dwell.recall - 2.0 / 3.0) < 1e-12)
        #expect(dwell.medianLatency == .seconds(60))
        #expect(dwell.p90Latency == .seconds(100))
        #expect(desk.precision == 1 && desk.recall == 1)
        #expect(desk.medianLatency == .milliseconds(75_500))
    }

    @Test("an Eddystone alert (namespace and instance, as the daemon writes it) matches its ground-truth uuid")
    func eddystoneAlert() throws {
        let id = BeaconID.eddystoneUID(namespaceHigh: 0x0102, namespaceLow: 0x0304_0506_0708_090A, instance: 0xAA)
        let event = AlertEvent(
            kind: .delivered, alertID: "poster", beacon: id, strategy: "time",
            time: Timestamp(rfc3339: "2025-01-01T09:01:00Z")!)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("eddystone-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try (event.jsonLine + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let alerts = try Scoring.readAlerts(path: path)
        #expect(alerts.count == 1)
        #expect(alerts.first?.beacon.uuid == id.uuid)
        #expect(alerts.first?.beacon.uuid.uuidString == "01020304-0506-0708-090A-0000000000AA")
    }

    @Test("without tolerance the late alert misses")
    func zeroTolerance() throws {
        let visits = try Scoring.readVisits(path: TestSupport.fixturePath("score.truth.jsonl"))
        let alerts = try Scoring.readAlerts(path: TestSupport.fixturePath("score.alerts.jsonl"))
        let dwell = Scoring.score(alerts: alerts, visits: visits, tolerance: .zero)[1]
        #expect(dwell.matchedAlerts == 1)
        #expect(dwell.p90Latency == .seconds(60))
    }

    @Test("nearest-rank percentiles", arguments: [(0.5, 3), (0.9, 5), (0.2, 1), (1.0, 5)] as [(Double, Int64)])
    func percentiles(p: Double, expected: Int64) {
        let score = Scoring.Score(
            alertID: "x", alerts: 5, matchedAlerts: 5, visits: 5,
            latencies: (1...5).map { Duration.seconds($0) })
        #expect(score.percentile(p) == .seconds(expected))
    }

    @Test("recomputing visits needs distance lines")
    func recomputeWithoutDistances() {
        #expect(throws: ScoringError.noDistances(file: TestSupport.fixturePath("score.truth.jsonl"))) {
            try Scoring.readVisits(path: TestSupport.fixturePath("score.truth.jsonl"), definition: VisitDefinition())
        }
    }
}

@Suite("Scoring from a written truth file")
struct ScoringRoundTripTests {
    @Test("lobby truth written then read: file visits and visits recomputed from distances agree")
    func lobbyRoundTrip() throws {
        let scenario = try Scenario.load(path: TestSupport.scenarioPath("lobby.yaml"))
        let path = FileManager.default.temporaryDirectory.path + "/lobby-\(ProcessInfo.processInfo.processIdentifier).truth.jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try GroundTruth(scenario: scenario).write(toFile: path)
        let key = BeaconID.iBeacon(uuid: TestSupport.uuid, major: 1, minor: 1)
        let expected = [
            Scoring.Visit(
                beacon: key, start: Timestamp(rfc3339: "2025-01-01T09:00:03Z")!,
                end: Timestamp(rfc3339: "2025-01-01T09:01:35Z")!)
        ]
        #expect(try Scoring.readVisits(path: path) == expected)
        #expect(
            try Scoring.readVisits(path: path, definition: VisitDefinition(radius: 3, minimumDuration: .seconds(60))) == expected)
        // Visitor 2 (x = −6 + 1.2·(t − 20 s), 2 m off the desk) is within 3 m while |x| ≤ √5, i.e.
        // samples t = 24, 25, 26 s: a 2 s visit, found once the minimum duration allows it.
        let short = try Scoring.readVisits(path: path, definition: VisitDefinition(radius: 3, minimumDuration: .seconds(2)))
        #expect(
            short.contains(
                Scoring.Visit(
                    beacon: BeaconID.iBeacon(uuid: TestSupport.uuid, major: 1, minor: 2),
                    start: Timestamp(rfc3339: "2025-01-01T09:00:24Z")!,
                    end: Timestamp(rfc3339: "2025-01-01T09:00:26Z")!)))
    }

    @Test("iBeacon, AltBeacon and Eddystone: truth and alert events name the same BeaconID, kind included")
    func everyKind() throws {
        let ids: [BeaconIdentity] = [
            .iBeacon(uuid: TestSupport.uuid, major: 1, minor: 1),
            .altBeacon(id1: TestSupport.uuid, id2: 1, id3: 1, manufacturer: 0x0118),
            .eddystoneUID(namespace: Array(1...10), instance: Array(11...16)),
        ]
        var scenario = TestSupport.fixedScenario(count: 3, distance: 1, duration: .seconds(100), radio: RadioModel())
        for (index, identity) in ids.enumerated() { scenario.beacons[index].identity = identity }
        let directory = FileManager.default.temporaryDirectory.path
        let truthPath = directory + "/kinds-\(UUID()).truth.jsonl"
        let alertsPath = directory + "/kinds-\(UUID()).alerts.jsonl"
        defer {
            try? FileManager.default.removeItem(atPath: truthPath)
            try? FileManager.default.removeItem(atPath: alertsPath)
        }
        try GroundTruth(scenario: scenario).write(toFile: truthPath)
        let at = { (seconds: Int64) in TestSupport.start + .seconds(seconds) }
        // "every": one alert per beacon. "ibeacon-twice": the iBeacon's one visit matches one
        // alert; the AltBeacon with the same numbers is another beacon, so the second misses.
        let events =
            ids.map { AlertEvent(kind: .delivered, alertID: "every", beacon: $0.beaconID, strategy: "time", time: at(10)) }
            + [10, 20].map {
                AlertEvent(kind: .delivered, alertID: "ibeacon-twice", beacon: ids[0].beaconID, strategy: "time", time: at($0))
            }
        try events.map { $0.jsonLine + "\n" }.joined().write(toFile: alertsPath, atomically: true, encoding: .utf8)

        let visits = try Scoring.readVisits(path: truthPath, definition: nil)
        #expect(visits.map(\.beacon) == ids.map(\.beaconID))
        let alerts = try Scoring.readAlerts(path: alertsPath)
        #expect(alerts.map(\.beacon) == events.map(\.beacon))
        let scores = Scoring.score(alerts: alerts, visits: visits)
        #expect(scores.map(\.alertID) == ["every", "ibeacon-twice"])
        #expect(scores[0].matchedAlerts == 3 && scores[0].visits == 3)
        #expect(scores[1].matchedAlerts == 1 && scores[1].alerts == 2)
    }

    @Test("a truth line whose identity is malformed names the file, the line and the member")
    func malformedIdentity() throws {
        let path = FileManager.default.temporaryDirectory.path + "/bad-\(UUID()).truth.jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try #"{"type":"beacon","beacon":"a","id":{"uuid":"5A4BCFCE-174E-4BAC-A814-092E77F6B7E5","major":1}}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ScoringError.badLine(file: path, line: 1, problem: BeaconIDJSONError.missingMember("minor").description))
        {
            try Scoring.readVisits(path: path)
        }
    }

    @Test("score table")
    func table() {
        let score = Scoring.Score(
            alertID: "lobby-dwell", alerts: 2, matchedAlerts: 1, visits: 1,
            latencies: [.milliseconds(61_500)])
        #expect(
            ScoreTable.render([score]) == """
                alert        alerts  visits  matched  precision  recall  latency p50  latency p90
                lobby-dwell  2       1       1        50.0%      100.0%  61.5s        61.5s
                """)
    }
}
