import BeaconCore
import BeaconForeignNodes
import BeaconRanging
import BeaconSiteReport
import Foundation
import Testing

/// A foreign node's messages ranged into the reports a beacond gateway publishes, on given time.
@Suite("A foreign node as a gateway")
struct ForeignGatewayNodeTests {
    static let id = "iBeacon:fda50693-a4e2-4fb1-afcf-c6eb07647825-100-65535"
    static let beacon = ESPresenseTranslatorTests.issue475
    static let topic = "espresense/devices/\(id)/office"
    static let t0 = Timestamp(seconds: 1_700_000_000)

    static func node() throws -> ForeignGatewayNode {
        try ForeignGatewayNode(gateway: "office-node", endpoint: ForeignNodeEndpoint(kind: .espresense, name: "office"))
    }

    static func message(rssi: Int) -> [UInt8] {
        Array(
            #"{"mac":"df51fd4a4caf","id":"\#(id)","rssi@1m":-59,"rssi":\#(rssi),"rxAdj":0,"distance":2.1,"var":0.3,"int":1000}"#
                .utf8)
    }

    /// The reports' headers and records, as values.
    static func decoded(_ reports: [GatewayReportMessage]) -> [(GatewayReportHeader, [GatewayRecord])] {
        reports.compactMap { report in
            guard case .decoded(let header, let records) = report else { return nil }
            return (header, records)
        }
    }

    @Test("sightings twice a second at −60 and −62 dBm: one report a cycle, the node's id, the cycle's end, the mean RSSI")
    func reportsPerCycle() throws {
        var node = try Self.node()
        var reports: [GatewayReportMessage] = []
        // Two messages a second for three seconds, 0.2 s and 0.7 s into each second.
        for second in 0..<3 {
            for (offset, rssi) in [(200, -60), (700, -62)] {
                let time = Self.t0 + .seconds(second) + .milliseconds(offset)
                let step = node.ingest(Self.message(rssi: rssi), topic: Self.topic, receivedAt: time)
                #expect(step.refusal(gateway: "office-node", kind: .espresense) == nil)
                reports += step.reports
            }
        }
        reports += node.advance(to: Self.t0 + .seconds(3))
        let cycles = Self.decoded(reports)
        #expect(cycles.map(\.0.time) == [Self.t0 + .seconds(1), Self.t0 + .seconds(2), Self.t0 + .seconds(3)])
        for (header, records) in cycles {
            #expect(header.gateway == "office-node")
            #expect(header.cycleLength == .seconds(1))
            #expect(header.recordCount == 1)
            let record = try #require(records.first)
            #expect(record.beacon == Self.beacon)
            #expect(record.meanRSSI == -61)
            #expect(record.sampleCount == 2)
            #expect(record.seen)
            #expect(record.measuredPower == -59)
        }
        #expect(node.counts.sightings == 6)
    }

    @Test("a refused message changes no record and is counted; a message of another topic is not the node's")
    func refusedAndForeignTopics() throws {
        var node = try Self.node()
        let bad = node.ingest(Array(#"{"id":"\#(Self.id)","rssi":500}"#.utf8), topic: Self.topic, receivedAt: Self.t0)
        #expect(bad.refusal(gateway: "office-node", kind: .espresense)?.reason == .outOfRange)
        let other = node.ingest(Self.message(rssi: -50), topic: "espresense/devices/\(Self.id)/kitchen", receivedAt: Self.t0)
        #expect(other.outcome == nil)
        #expect(node.advance(to: Self.t0 + .seconds(5)).isEmpty)
        #expect(node.counts.refused == 1)
        #expect(node.counts.sightings == 0)
    }

    @Test("a node hearing only devices that are not beacons sends empty reports while it lives, none after `offline`")
    func heartbeats() throws {
        var node = try Self.node()
        let phone = Array(#"{"mac":"58b1294494d3","id":"watch:darrell","rssi@1m":-64,"rssi":-86}"#.utf8)
        _ = node.ingest(phone, topic: "espresense/devices/watch:darrell/office", receivedAt: Self.t0 + .milliseconds(500))
        let beats = Self.decoded(node.advance(to: Self.t0 + .milliseconds(3500)))
        #expect(beats.map(\.0.time) == [Self.t0 + .seconds(1), Self.t0 + .seconds(2), Self.t0 + .seconds(3)])
        #expect(beats.allSatisfy { $0.0.recordCount == 0 && $0.1.isEmpty && $0.0.gateway == "office-node" })
        #expect(node.counts.ignored == 1)
        // Its last will: no heartbeat from then on.
        _ = node.ingest(Array("offline".utf8), topic: "espresense/rooms/office/status", receivedAt: Self.t0 + .milliseconds(3600))
        #expect(node.online == false)
        #expect(node.advance(to: Self.t0 + .seconds(8)).isEmpty)
        // Back: its next message (`online`, its first on reconnecting) starts them again.
        _ = node.ingest(Array("online".utf8), topic: "espresense/rooms/office/status", receivedAt: Self.t0 + .milliseconds(8200))
        #expect(
            Self.decoded(node.advance(to: Self.t0 + .milliseconds(10_500))).map(\.0.time) == [
                Self.t0 + .seconds(9), Self.t0 + .seconds(10),
            ])
    }

    @Test("a message stamped a little before the node's latest time is taken at that time, not dropped as late")
    func stampsOutOfOrder() throws {
        var node = try Self.node()
        _ = node.advance(to: Self.t0 + .milliseconds(1_000))
        _ = node.ingest(Self.message(rssi: -60), topic: Self.topic, receivedAt: Self.t0 + .milliseconds(999))
        let cycles = Self.decoded(node.advance(to: Self.t0 + .seconds(2)))
        #expect(cycles.map(\.0.time) == [Self.t0 + .seconds(2)])
        #expect(cycles.first?.1.first?.sampleCount == 1)
    }

    @Test("a silent node's heartbeats stop after its liveness (15 s)")
    func livenessEnds() throws {
        var node = try Self.node()
        let phone = Array(#"{"id":"watch:darrell","rssi":-86}"#.utf8)
        _ = node.ingest(phone, topic: "espresense/devices/watch:darrell/office", receivedAt: Self.t0 + .milliseconds(100))
        var times: [Timestamp] = []
        for second in 1...30 { times += Self.decoded(node.advance(to: Self.t0 + .seconds(second))).map(\.0.time) }
        #expect(times == (1...15).map { Self.t0 + .seconds($0) })
    }
}

/// A flood of identities through one foreign node (issue 37, item 3): 2,500 new ids every half
/// second on its topic blinded it — its one report a cycle outgrew the hub's 4,096-record cap and
/// was refused whole, every cycle. Now its cycle splits like a gateway's, its ranging takes at
/// most `maxNewPerCycle` newcomers a cycle, and the real tag is in every cycle's reports.
@Suite("A foreign node under a flood of identities")
struct ForeignNodeFloodTests {
    typealias F = ForeignGatewayNodeTests

    static func spoofed(_ n: Int) -> (topic: String, payload: [UInt8]) {
        let id = "iBeacon:fda50693-a4e2-4fb1-afcf-c6eb07647825-\(1 + n / 65_536)-\(n % 65_536)"
        let payload = #"{"mac":"aa0000000001","id":"\#(id)","rssi@1m":-59,"rssi":-50,"int":1000}"#
        return ("espresense/devices/\(id)/office", Array(payload.utf8))
    }

    @Test(
        "1,500 ids every 0.5 s from a pool of 5,000: every report within the hub's cap, the real tag in every cycle, the refusals counted"
    )
    func flood() throws {
        var node = try F.node()
        var reports: [GatewayReportMessage] = []
        var n = 0
        // The real tag twice a second from the start; the flood from the third second on.
        for half in 0..<24 {
            let time = F.t0 + .milliseconds(500 * half + 100)
            reports += node.ingest(F.message(rssi: -61), topic: F.topic, receivedAt: time).reports
            guard half >= 4 else { continue }
            for _ in 0..<1500 {
                let (topic, payload) = Self.spoofed(n % 5000)
                reports += node.ingest(payload, topic: topic, receivedAt: time + .milliseconds(1)).reports
                n += 1
            }
        }
        reports += node.advance(to: F.t0 + .seconds(12))
        let decoded = F.decoded(reports)
        #expect(
            decoded.allSatisfy { $0.0.recordCount <= GatewayReportEncoder.recordsPerReport && $0.1.count == $0.0.recordCount })
        let cycles = Dictionary(grouping: decoded, by: \.0.time)
        #expect(cycles.count == 12)
        for (time, parts) in cycles {
            #expect(
                parts.contains { $0.1.contains { $0.beacon == F.beacon } },
                "the real tag is missing from the cycle ending \(time)")
        }
        // 1,000 newcomers a cycle at most, so the pool is all in after five cycles; its cycle
        // then lists more than one report holds.
        let last = try #require(cycles[F.t0 + .seconds(12)])
        #expect(last.count >= 2)
        #expect(node.refusedNewcomers > 0)
    }
}
