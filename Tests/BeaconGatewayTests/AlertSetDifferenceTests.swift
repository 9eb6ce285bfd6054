import BeaconAlertEngine
import BeaconCore
import BeaconOfflineRuns
import BeaconTestSupport
import Foundation
import Testing

/// Trying a change before it goes live (issue 38, item 2): two alert sets on the same input,
/// their deliveries paired — the same, earlier, later, added, dropped.
@Suite("Alert set differences: beacond diff-alerts")
struct AlertSetDifferenceTests {
    static let t0 = Timestamp(nanosecondsSinceEpoch: 1_735_722_000_000_000_000)
    static let anna = BeaconID.iBeacon(uuidHigh: 1, uuidLow: 2, major: 1, minor: 1)
    static let ben = BeaconID.iBeacon(uuidHigh: 1, uuidLow: 2, major: 1, minor: 2)

    static func delivered(_ alert: String, _ beacon: BeaconID, _ seconds: Int, attempt: Int = 0) -> AlertEvent {
        AlertEvent(
            kind: .delivered, alertID: alert, beacon: beacon, strategy: "time", time: t0 + .seconds(seconds), attempt: attempt)
    }

    @Test("pairs within the window, nearest first; the rest is added or dropped; reminders do not count")
    func pairing() {
        let old = [
            Self.delivered("dwell", Self.anna, 60), Self.delivered("dwell", Self.anna, 600),
            Self.delivered("dwell", Self.ben, 100),
            Self.delivered("dwell", Self.ben, 400, attempt: 1), Self.delivered("gone", Self.anna, 900),
        ]
        let new = [
            Self.delivered("dwell", Self.anna, 30), Self.delivered("dwell", Self.anna, 600),
            Self.delivered("dwell", Self.ben, 1000),
            Self.delivered("dwell", Self.ben, 1200, attempt: 1),
        ]
        let difference = AlertSetDifference(old: old, new: new, within: .seconds(300))
        let kinds = difference.changes.map { "\($0.alertID) \($0.beacon.minor) \($0.kind.rawValue)" }
        #expect(kinds == ["dwell 1 earlier", "dwell 2 dropped", "dwell 1 same", "gone 1 dropped", "dwell 2 added"])
        #expect(difference.changes[0].shift == .seconds(-30))
        #expect(difference.differences.count == 4)
        let dwell = difference.counts.first { $0.alertID == "dwell" }?.counts
        #expect(dwell?[.earlier] == 1 && dwell?[.same] == 1 && dwell?[.dropped] == 1 && dwell?[.added] == 1)
        #expect(AlertSetDifference(old: old, new: old, within: .zero).differences.isEmpty)
    }

    @Test(
        "on the lobby: a 30 s dwell brings visitor 1's alert 30 s earlier; a 5 s dwell adds visitor 2's (exit 1); the same set is exit 0"
    )
    func lobby() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("diff-alerts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func alerts(dwell: String) throws -> String {
            let path = directory.appendingPathComponent("dwell-\(dwell).yaml").path
            try """
            alerts:
              - id: lobby-dwell
                match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5}
                strategy: time
                parameters: {dwell: \(dwell), gap: 10s, maxTimeBeforeReset: 60s}
            """.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let lobby = TestPaths.scenario("lobby")
        let sixty = try alerts(dwell: "60s")
        let thirty = try await CommandRun.run(
            TestPaths.beacond, ["diff-alerts", sixty, try alerts(dwell: "30s"), "--scenario", lobby, "--json"])
        #expect(thirty.status == 1, "\(thirty.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(thirty.standardOutput.utf8)) as? [String: Any])
        let differences = try #require(object["differences"] as? [[String: Any]])
        let visitor1 = try #require(differences.first { ($0["beacon"] as? String)?.hasSuffix(":1:1") == true })
        #expect(visitor1["change"] as? String == "earlier")
        // Visitor 1 is heard from the first second and stays: half the dwell is 30 s, give or take a cycle.
        let shift = try #require(visitor1["shift"] as? Double)
        #expect(shift <= -28 && shift >= -32, "\(shift)")
        #expect(!differences.contains { ($0["beacon"] as? String)?.hasSuffix(":1:2") == true }, "visitor 2 stays under 30 s")

        let five = try await CommandRun.run(
            TestPaths.beacond, ["diff-alerts", sixty, try alerts(dwell: "5s"), "--scenario", lobby])
        #expect(five.status == 1)
        #expect(five.standardOutput.contains(":1:2  added"), "visitor 2 crosses in about 10 s: \(five.standardOutput)")

        let same = try await CommandRun.run(TestPaths.beacond, ["diff-alerts", sixty, sixty, "--scenario", lobby])
        #expect(same.status == 0, "\(same.standardOutput)")
        #expect(
            same.standardOutput.hasPrefix(
                "alert        same  earlier  later  added  dropped\nlobby-dwell  1     0        0      0      0      \n"),
            "\(same.standardOutput)")
    }
}
