import BeaconCore
import BeaconSiteLink
import BeaconSiteReport
import Testing

/// A gateway's reports of a cycle: its records in their buckets, and the heartbeat — an empty
/// report to every other bucket (issue 27, part 3).
@Suite("Site cycle reports: records per bucket, empty reports to the others")
struct SiteCycleReportsTests {
    static let topics = SiteTopics(site: "shop", bucketCount: 16)
    static let end = Timestamp(nanosecondsSinceEpoch: 1_767_225_601_000_000_000)

    static func beacon(minor: UInt16) -> RangedBeacon {
        RangedBeacon(
            id: .iBeacon(uuidHigh: 0xAA, uuidLow: 0xBB, major: 1, minor: minor),
            lastAddress: BluetoothAddress(rawValue: 0xC0_FF_EE_12_34_56), seenThisCycle: true, sampleCount: 3,
            lastRSSI: -60, meanRSSI: -61, filteredRSSI: -60.5, measuredPower: -59, distance: 2, accuracy: 0.4,
            proximity: .near, firstSeen: end - .seconds(5), lastSeen: end - .milliseconds(100))
    }

    /// Decodes every report sent: (bucket, gateway, time, record count).
    static func decoded(_ sent: [(Int, [UInt8])]) throws -> [(bucket: Int, header: GatewayReportHeader, records: Int)] {
        try sent.map { bucket, bytes in
            let (header, records) = try GatewayReportDecoder.decode(bytes)
            #expect(records.count == header.recordCount)
            return (bucket, header, records.count)
        }
    }

    @Test(
        "beacons in some buckets: their records go there, an empty report to exactly the others",
        arguments: GatewayReportFormat.allCases)
    func emptyReportsToTheOtherBuckets(format: GatewayReportFormat) throws {
        var reports = SiteCycleReports(gateway: "gw-1", format: format, topics: Self.topics)
        let beacons = (1...5).map { Self.beacon(minor: $0) }
        var update = RangingUpdate(cycleStart: Self.end - .seconds(1), time: Self.end)
        update.beacons = beacons
        var sent: [(Int, [UInt8])] = []
        reports.encode(update) { sent.append(($0, $1)) }

        let withRecords = Set(beacons.map { Self.topics.bucket(of: $0.id) })
        #expect(withRecords.count > 1 && withRecords.count < 16)
        let reportsSent = try Self.decoded(sent)
        // Every bucket gets exactly one report; the buckets of the beacons their records, the others none.
        #expect(reportsSent.map(\.bucket).sorted() == Array(0..<16))
        for report in reportsSent {
            #expect(report.header.gateway == "gw-1" && report.header.time == Self.end)
            #expect(report.header.cycleLength == .seconds(1))
            let expected = beacons.count { Self.topics.bucket(of: $0.id) == report.bucket }
            #expect(report.records == expected, "bucket \(report.bucket)")
        }
        if format == .binary {
            // The empty report is the header alone: 19 bytes and the gateway's id.
            let empty = sent.first { !withRecords.contains($0.0) }!.1
            #expect(empty.count == 19 + "gw-1".utf8.count)
        }
        #expect(reports.lastCycleEnd == Self.end)
    }

    @Test("nothing tracked: the heartbeat sends one empty report per bucket, once per cycle")
    func heartbeatOncePerCycle() throws {
        var reports = SiteCycleReports(gateway: "gw-1", format: .binary, topics: Self.topics)
        var sent: [(Int, [UInt8])] = []
        reports.heartbeat(cycleEnd: Self.end, cycleLength: .seconds(1)) { sent.append(($0, $1)) }
        #expect(try Self.decoded(sent).map(\.records) == Array(repeating: 0, count: 16))
        #expect(try Self.decoded(sent).map(\.bucket) == Array(0..<16))
        // The same cycle again (another tick within it), or one already reported: nothing.
        reports.heartbeat(cycleEnd: Self.end, cycleLength: .seconds(1)) { sent.append(($0, $1)) }
        #expect(sent.count == 16)
        var update = RangingUpdate(cycleStart: Self.end, time: Self.end + .seconds(1))
        update.beacons = [Self.beacon(minor: 1)]
        reports.encode(update) { sent.append(($0, $1)) }
        #expect(sent.count == 32)
        reports.heartbeat(cycleEnd: Self.end + .seconds(1), cycleLength: .seconds(1)) { sent.append(($0, $1)) }
        #expect(sent.count == 32)
        // The next cycle, idle again: its heartbeat.
        reports.heartbeat(cycleEnd: Self.end + .seconds(2), cycleLength: .seconds(1)) { sent.append(($0, $1)) }
        #expect(sent.count == 48)
        #expect(try Self.decoded(Array(sent[32...])).allSatisfy { $0.header.time == Self.end + .seconds(2) })
    }
}
