import BeaconCore
import BeaconSiteReport
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real `beacond hub` on a real mosquitto whose gateways are ESPresense nodes (issue 28, part 1):
/// each node publishes what the firmware publishes (`espresense/devices/<id>/<room>`, the
/// `BleFingerprint::fill` JSON) a few times a second, with `mosquitto_pub`, and the hub decides
/// the room of the node that hears the tag best, while a beacond gateway of the same site puts
/// another tag in its room; a payload no ESPresense node sends is refused, counted and logged,
/// never fused.
@Suite("A hub of ESPresense nodes", .serialized)
struct SiteForeignNodesTests {
    static let id = "iBeacon:fda50693-a4e2-4fb1-afcf-c6eb07647825-100-65535"

    /// A device message as ESPresense 4.x writes it (member order and formatting of `fill`).
    static func payload(rssi: Double, distance: Double) -> String {
        #"{"mac":"df51fd4a4caf","id":"\#(id)","rssi@1m":-59,"rssi":\#(rssi),"rxAdj":0,"rssiVar":1.84,"distance":\#(distance),"var":0.21,"int":1032}"#
    }

    @Test(
        "a mixed site: three nodes at −61, −79 and −86 dBm put the tag in the loudest node's room and its dwell alert comes; a beacond gateway's tag is in its room; bad payloads are counted by reason"
    )
    func strongestNodeDecides() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let directory = broker.directory
        let events = directory.appendingPathComponent("events.jsonl")
        let presence = directory.appendingPathComponent("presence.jsonl")
        let configuration = directory.appendingPathComponent("hub.yaml")
        try """
        site: {name: home, broker: {host: 127.0.0.1, port: \(broker.port)}}
        gateways:
          - {id: esp-office, kind: espresense, room: office}
          - {id: esp-kitchen, kind: espresense, room: kitchen}
          - {id: esp-hall, kind: espresense, room: hall, node: hallway}
          - {id: pi-shop, room: shop}
        hub: {presence: \(presence.path)}
        http: {listen: "127.0.0.1:0"}
        sinks:
          - {type: jsonl, path: \(events.path)}
        alerts:
          - {id: office-dwell, match: {uuid: FDA50693-A4E2-4FB1-AFCF-C6EB07647825}, strategy: time, parameters: {dwell: 3s, room: office}}
          - {id: kitchen-entry, match: {uuid: FDA50693-A4E2-4FB1-AFCF-C6EB07647825}, strategy: time, parameters: {dwell: 1s, room: kitchen}}

        """.write(to: configuration, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("hub.log")
        let hub = try SiteProcesses.start(["hub", "--config", configuration.path], log: log)
        defer { if hub.isRunning { kill(hub.processIdentifier, SIGKILL) } }
        // Ready: its subscriptions acknowledged, so that nothing sent from here on is missed.
        await SiteProcesses.waitUntilReady([log])
        let announced = SiteProcesses.lines(log).first { $0.contains("control endpoint on http://127.0.0.1:") }
        let url = try #require(announced?.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init))

        func publish(_ text: String, room: String, id: String = Self.id) async throws {
            let status = try await SiteProcesses.publish(
                Array(text.utf8), topic: "espresense/devices/\(id)/\(room)", port: broker.port, in: directory)
            #expect(status == 0)
        }
        // A beacond gateway of the same site hears a second tag loud (−55 dBm) that the office node
        // hears faintly: its JSON report, as `beacond run` with site: publishes it.
        let second = "iBeacon:fda50693-a4e2-4fb1-afcf-c6eb07647825-100-2"
        let topics = SiteTopics(site: "home")
        let secondTag = BeaconID.iBeacon(uuid: UUID(uuidString: "FDA50693-A4E2-4FB1-AFCF-C6EB07647825")!, major: 100, minor: 2)
        func gatewayReport() -> String {
            let time = Timestamp(secondsSinceEpoch: Date().timeIntervalSince1970).rfc3339String
            return
                #"{"v":1,"gateway":"pi-shop","time":"\#(time)","cycleMs":1000,"records":[{"beacon":{"uuid":"FDA50693-A4E2-4FB1-AFCF-C6EB07647825","major":100,"minor":2},"rssi":-55,"mean":-55,"distance":0.8,"accuracy":0.3,"samples":4,"seen":true,"ageMs":0}]}"#
        }
        // Two messages a second from each node (ESPresense reports a moving fingerprint about so
        // often), with the jitter of a smoothed RSSI, each round's published at once; the bad ones
        // in the second round. Until the dwell alert and the shop tag's room have come (at least
        // six rounds; a loaded machine publishes slowly, and only a hang stops it short).
        var dwellSeen = false
        var shopSeen = false
        let giveUp = ContinuousClock.now + SiteProcesses.hang
        var round = -1
        while ContinuousClock.now < giveUp {
            round += 1
            let jitter = Double(round % 3) - 1
            var messages: [(String, String, String)] = [
                (Self.payload(rssi: -61 + jitter, distance: 1.2), "office", Self.id),
                (Self.payload(rssi: -79 - jitter, distance: 5.8), "kitchen", Self.id),
                (Self.payload(rssi: -86 + jitter, distance: 9.6), "hallway", Self.id),
                (
                    Self.payload(rssi: -85 + jitter, distance: 12).replacingOccurrences(of: Self.id, with: second), "office",
                    second
                ),
            ]
            if round == 1 {
                // An RSSI no radio reports, loud in the kitchen; bytes that are no JSON.
                messages += [(Self.payload(rssi: 500, distance: 0.1), "kitchen", Self.id), ("garbage", "kitchen", Self.id)]
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (text, room, id) in messages {
                    group.addTask { try await publish(text, room: room, id: id) }
                }
                group.addTask {
                    let status = try await SiteProcesses.publish(
                        Array(gatewayReport().utf8),
                        topic: topics.recordsTopic(bucket: topics.bucket(of: secondTag), gateway: "pi-shop"),
                        port: broker.port, in: directory)
                    #expect(status == 0)
                }
                try await group.waitForAll()
            }
            try await Task.sleep(for: .milliseconds(400))
            dwellSeen = SiteProcesses.lines(events).contains { $0.contains(#""alert":"office-dwell""#) }
            shopSeen = SiteProcesses.lines(presence).contains { $0.contains(#""minor":2}"#) && $0.contains(#""room":"shop""#) }
            if round >= 5, dwellSeen, shopSeen { break }
        }
        #expect(hub.isRunning, "the hub died: \(SiteProcesses.lines(log).suffix(20))")
        #expect(dwellSeen, "no office dwell: \(SiteProcesses.lines(log).suffix(20)) \(SiteProcesses.lines(presence).suffix(3))")
        #expect(
            !SiteProcesses.lines(events).contains { $0.contains(#""alert":"kitchen-entry""#) }, "a refused payload moved the tag")
        let rooms = SiteProcesses.lines(presence).filter { $0.contains(#""minor":65535"#) }.compactMap { line -> String? in
            guard let range = line.range(of: #""room":""#) else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
        #expect(rooms.last == "office", "\(rooms)")
        #expect(!rooms.contains("kitchen") && !rooms.contains("hall"), "\(rooms)")
        let secondRooms = SiteProcesses.lines(presence).filter { $0.contains(#""minor":2,"#) || $0.contains(#""minor":2}"#) }
        #expect(secondRooms.last?.contains(#""room":"shop""#) == true, "\(secondRooms.suffix(3))")

        var metrics = ""
        let metricsDeadline = ContinuousClock.now + SiteProcesses.hang
        while ContinuousClock.now < metricsDeadline {
            metrics = try await DaemonControlTests.get(url + "/metrics").1
            if SiteHostileReportsTests.metric(metrics, #"beacond_site_reports_refused_total{reason="malformed"}"#) == 1 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        for reason in ["out_of_range", "malformed"] {
            #expect(
                SiteHostileReportsTests.metric(metrics, #"beacond_site_reports_refused_total{reason="\#(reason)"}"#) == 1,
                "\(reason): \(metrics.split(separator: "\n").filter { $0.contains("site_") })")
        }
        let lines = SiteProcesses.lines(log)
        #expect(lines.contains { $0.contains("refused (out_of_range)") && $0.contains("esp-kitchen") }, "\(lines.suffix(20))")
        kill(hub.processIdentifier, SIGTERM)
        await waitForExit(hub)
        // On the way out, each node's count: the office node refused nothing, the kitchen two.
        let exit = SiteProcesses.lines(log)
        #expect(exit.contains { $0.contains("espresense node esp-office") && $0.contains(" 0 refused") }, "\(exit.suffix(8))")
        #expect(exit.contains { $0.contains("espresense node esp-kitchen") && $0.contains(" 2 refused") }, "\(exit.suffix(8))")
    }
}
