import BeaconTestSupport
import Foundation
import Testing

/// `deliverWhen` end to end (issue 29): "offer the voucher" is delivered when the visitor is
/// still there when it falls due, and dropped when they have left — on the simulated lobby (one
/// gateway: proximity to the desk), through `simulate` and through `run`, and on the simulated
/// site (a hub's rooms: still in the café).
@Suite("Delivery conditions, simulated end to end")
struct DeliveryConditionRunTests {
    /// The JSON lines of one alert's events: (event, minor, message).
    static func events(_ output: String, alert: String) throws -> [(event: String, minor: Int, message: String)] {
        try output.split(separator: "\n").compactMap { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["alert"] as? String == alert, let event = object["event"] as? String,
                let minor = (object["beacon"] as? [String: Any])?["minor"] as? Int
            else { return nil }
            return (event, minor, object["message"] as? String ?? "")
        }
    }

    static func write(_ text: String, named name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Both lobby visitors have dwelt 3 s; 8 s later visitor 1 waits at the desk (near), visitor 2
    /// has crossed the lobby and gone.
    static let lobbyAlerts = """
        alerts:
          - id: voucher
            match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5}
            strategy: time
            parameters: {dwell: 3s, gap: 10s, maxTimeBeforeReset: 60s}
            delay: 8s
            deliverWhen: {proximity: near, maxWait: 20s, then: drop}
            content: {title: Voucher}

        """

    func checkLobby(_ output: String) throws {
        let events = try Self.events(output, alert: "voucher")
        #expect(events.filter { $0.minor == 1 }.map(\.event) == ["created", "delivered"], "\(events)")
        let second = events.filter { $0.minor == 2 }
        #expect(second.map(\.event) == ["created", "created", "cancelled"], "\(second)")
        #expect(
            second.last?.message.hasPrefix("dropped: the delivery condition (near or closer) did not hold within 20s") == true)
    }

    @Test("lobby, simulate: visitor 1 still at the desk gets the voucher; visitor 2, gone, does not")
    func lobbySimulate() async throws {
        let alerts = try Self.write(Self.lobbyAlerts, named: "lobby-voucher")
        defer { try? FileManager.default.removeItem(atPath: alerts) }
        let run = try await CommandRun.run(TestPaths.beacond, ["simulate", TestPaths.scenario("lobby"), "--config", alerts])
        #expect(run.status == 0, "\(run.standardError)")
        try checkLobby(run.standardOutput)
    }

    @Test("lobby, run: the same through the daemon")
    func lobbyRun() async throws {
        let configuration = try Self.write(
            "source: {simulate: \(TestPaths.scenario("lobby"))}\nsinks:\n  - {type: jsonl, path: \"-\"}\n" + Self.lobbyAlerts,
            named: "lobby-voucher-run")
        defer { try? FileManager.default.removeItem(atPath: configuration) }
        let run = try await CommandRun.run(TestPaths.beacond, ["run", "--config", configuration])
        #expect(run.status == 0, "\(run.standardError)")
        try checkLobby(run.standardOutput)
    }

    @Test("site, simulate with its hub: due 30 s after reaching the café, delivered; due 100 s after, when they left, dropped")
    func siteRooms() async throws {
        let alerts = try Self.write(
            """
            alerts:
              - id: voucher-soon
                match: {uuid: 6E0C5A2B-3F1D-4C8E-9B7A-1D2E3F405162}
                strategy: moved
                parameters: {from: shop, to: cafe, within: 2m}
                delay: 30s
                deliverWhen: {room: cafe, maxWait: 20s, then: drop}
              - id: voucher-late
                match: {uuid: 6E0C5A2B-3F1D-4C8E-9B7A-1D2E3F405162}
                strategy: moved
                parameters: {from: shop, to: cafe, within: 2m}
                delay: 100s
                deliverWhen: {room: cafe, maxWait: 20s, then: drop}
            hub:
              position: {tagHeight: 1.2, pathLossExponent: 2.0}

            """, named: "site-voucher")
        defer { try? FileManager.default.removeItem(atPath: alerts) }
        let run = try await CommandRun.run(TestPaths.beacond, ["simulate", TestPaths.scenario("site"), "--config", alerts])
        #expect(run.status == 0, "\(run.standardError)")
        // Six visitors dwell 60 s in the café, then walk back to the entrance.
        let soon = try Self.events(run.standardOutput, alert: "voucher-soon")
        #expect(soon.filter { $0.event == "delivered" }.count == 6, "\(soon)")
        #expect(!soon.contains { $0.event == "cancelled" }, "\(soon)")
        let late = try Self.events(run.standardOutput, alert: "voucher-late")
        #expect(!late.contains { $0.event == "delivered" }, "\(late)")
        let dropped = late.filter { $0.event == "cancelled" }
        #expect(dropped.count == 6, "\(late)")
        #expect(dropped.allSatisfy { $0.message.contains("did not hold within 20s: the beacon is in room") }, "\(dropped)")
    }
}
