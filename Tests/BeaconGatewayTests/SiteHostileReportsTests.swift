import BeaconCore
import BeaconSite
import BeaconSiteReport
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real `beacond hub` on a real mosquitto, fed hostile messages with `mosquitto_pub` (issue 26,
/// defects 1–5): a report dated 2300 crashed the hub; a report claiming a gateway's clock silenced
/// it; reports under another gateway's topic, in the wrong bucket or with RSSI +500 dBm were
/// fused; 65,535-record reports filled the hub; and none of it showed in a log or a metric.
@Suite("A hub under hostile reports", .serialized)
struct SiteHostileReportsTests {
    static let uuid = "3D1F6A2B-8C4E-4F7A-9B0C-1D2E3F405162"
    static let tag = BeaconID.iBeacon(uuid: UUID(uuidString: uuid)!, major: 1, minor: 1)
    static let topics = SiteTopics(site: "hostile")

    /// A JSON gateway report of `gateway` with the tag at `rssi` (and `extra` records).
    static func report(gateway: String, time: String, rssi: Double = -55, distance: Double = 1.5, extra: [String] = []) -> String
    {
        let record =
            #"{"beacon":{"uuid":"\#(uuid)","major":1,"minor":1},"rssi":\#(rssi),"mean":\#(rssi),"distance":\#(distance),"#
            + #""accuracy":0.3,"samples":4,"seen":true,"ageMs":0}"#
        return
            #"{"v":1,"gateway":"\#(gateway)","time":"\#(time)","cycleMs":1000,"records":[\#(([record] + extra).joined(separator: ","))]}"#
    }

    static func metric(_ body: String, _ line: String) -> Int? {
        body.split(separator: "\n").first { $0.hasPrefix(line + " ") }.flatMap { Int($0.split(separator: " ").last ?? "") }
    }

    @Test("no hostile report crashes the hub, moves a room or silences a gateway; each is counted by reason and logged")
    func hostileReports() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let directory = broker.directory
        let events = directory.appendingPathComponent("events.jsonl")
        let configuration = directory.appendingPathComponent("hub.yaml")
        try """
        site: {name: hostile, broker: {host: 127.0.0.1, port: \(broker.port)}}
        gateways:
          - {id: west, room: hall, position: [0, 0, 2.5]}
          - {id: east, room: shop, position: [20, 0, 2.5]}
        http: {listen: "127.0.0.1:0"}
        sinks:
          - {type: jsonl, path: \(events.path)}
        alerts:
          - {id: hall-dwell, match: {uuid: \(Self.uuid)}, strategy: time, parameters: {dwell: 3s, room: hall}}
          - {id: shop-entry, match: {uuid: \(Self.uuid)}, strategy: time, parameters: {dwell: 1s, room: shop}}

        """.write(to: configuration, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("hub.log")
        let hub = try SiteProcesses.start(["hub", "--config", configuration.path], log: log)
        defer { if hub.isRunning { kill(hub.processIdentifier, SIGKILL) } }
        // Ready: its subscriptions acknowledged, so that nothing sent from here on is missed.
        await SiteProcesses.waitUntilReady([log])
        let announced = SiteProcesses.lines(log).first { $0.contains("control endpoint on http://127.0.0.1:") }
        let url = try #require(announced?.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init))

        let bucket = Self.topics.bucket(of: Self.tag)
        let west = Self.topics.recordsTopic(bucket: bucket, gateway: "west")
        func now(_ ahead: Double = 0) -> String {
            Timestamp(secondsSinceEpoch: Date().timeIntervalSince1970 + ahead).rfc3339String
        }
        func send(_ text: String, to topic: String = west) async throws {
            let status = try await SiteProcesses.publish(Array(text.utf8), topic: topic, port: broker.port, in: directory)
            #expect(status == 0, "mosquitto_pub to \(topic)")
        }

        // The real west gateway's first report sets its clock.
        try await send(Self.report(gateway: "west", time: now()))
        // 1. A report dated 2300, 2. one claiming a time 100 s ahead of west's clock (and the
        // shop, loud), 3. east's report under west's topic, 4. a beacon of another bucket,
        // 5. RSSI +500 dBm, 6. a gateway the site does not have, 7. bytes that are no report,
        // 8. a binary report of 5,000 records (over hub.maxRecordsPerReport), 9. another site's topic.
        try await send(Self.report(gateway: "west", time: "2300-01-01T00:00:00Z"))
        try await send(Self.report(gateway: "west", time: now(100), rssi: -30, distance: 0.3))
        try await send(Self.report(gateway: "east", time: now(), rssi: -30, distance: 0.3))
        let stranger = (0..<500).map { BeaconID.iBeacon(uuidHigh: 5, uuidLow: 6, major: 7, minor: UInt16($0)) }
            .first { Self.topics.bucket(of: $0) != bucket }!
        try await send(
            Self.report(
                gateway: "west", time: now(),
                extra: [
                    #"{"beacon":{"uuid":"\#(stranger.uuid.uuidString)","major":7,"minor":\#(stranger.minor)},"samples":1,"seen":true,"ageMs":0}"#
                ]))
        try await send(Self.report(gateway: "west", time: now(), rssi: 500))
        try await send(
            Self.report(gateway: "kitchen", time: now()), to: Self.topics.recordsTopic(bucket: bucket, gateway: "kitchen"))
        try await send("\u{62}\u{73}\u{1}garbage")
        var encoder = GatewayReportEncoder(gateway: "west")
        encoder.begin(time: Timestamp(secondsSinceEpoch: Date().timeIntervalSince1970), cycleLength: .seconds(1))
        for i in 0..<5000 {
            encoder.append(
                GatewayRecord(
                    beacon: .iBeacon(uuidHigh: 9, uuidLow: UInt64(i), major: 1, minor: 1), rssi: -70, distance: 5,
                    accuracy: 1, sampleCount: 1, seen: true, lastSeen: Timestamp(secondsSinceEpoch: Date().timeIntervalSince1970))
            )
        }
        encoder.finish()
        #expect(try await SiteProcesses.publish(encoder.bytes, topic: west, port: broker.port, in: directory) == 0)

        // Meanwhile west goes on reporting the tag in the hall: the dwell alert must come.
        var dwellSeen = false
        let giveUp = ContinuousClock.now + SiteProcesses.hang
        while !dwellSeen, ContinuousClock.now < giveUp {
            try await send(Self.report(gateway: "west", time: now()))
            try await Task.sleep(for: .milliseconds(500))
            dwellSeen = SiteProcesses.lines(events).contains { $0.contains(#""alert":"hall-dwell""#) }
        }
        #expect(hub.isRunning, "the hub died: \(SiteProcesses.lines(log).suffix(20))")
        #expect(dwellSeen, "west's real reports were not fused after the forgeries: \(SiteProcesses.lines(log).suffix(20))")
        #expect(!SiteProcesses.lines(events).contains { $0.contains(#""alert":"shop-entry""#) }, "a forged report moved the tag")

        let expected: [(String, Int)] = [
            ("malformed", 2), ("clock", 1), ("wrong_topic", 1), ("wrong_bucket", 1), ("out_of_range", 1),
            ("unknown_gateway", 1), ("too_many_records", 1),
        ]
        var metrics = ""
        let metricsDeadline = ContinuousClock.now + SiteProcesses.hang
        while ContinuousClock.now < metricsDeadline {
            metrics = try await DaemonControlTests.get(url + "/metrics").1
            if expected.allSatisfy({ Self.metric(metrics, #"beacond_site_reports_refused_total{reason="\#($0.0)"}"#) == $0.1 }) {
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        for (reason, count) in expected {
            #expect(
                Self.metric(metrics, #"beacond_site_reports_refused_total{reason="\#(reason)"}"#) == count,
                "\(reason): \(metrics.split(separator: "\n").filter { $0.contains("site_") })")
        }
        // One beacon in the hub: the 5,000 of the oversized report were never taken.
        #expect(Self.metric(metrics, "beacond_beacons_tracked") == nil || metrics.contains("beacond_beacons_tracked 1.0"))
        let lines = SiteProcesses.lines(log)
        for (reason, _) in expected {
            #expect(lines.contains { $0.contains("refused (\(reason))") }, "no log line for \(reason): \(lines.suffix(30))")
        }
        #expect(lines.contains { $0.contains("2300-01-01") && $0.contains("refused (malformed)") })

        kill(hub.processIdentifier, SIGTERM)
        await waitForExit(hub)
        #expect(hub.terminationStatus == 0)
        let summary = SiteProcesses.lines(log).last { $0.contains("site:") && $0.contains("refused:") }
        #expect(summary?.contains("clock 1") == true, "exit summary: \(SiteProcesses.lines(log).suffix(5))")
    }
}
