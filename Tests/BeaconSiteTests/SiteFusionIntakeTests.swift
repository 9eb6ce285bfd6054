import BeaconCore
import BeaconSite
import BeaconSiteReport
import Testing

/// What a hub refuses before anything of a report is fused (issue 26, defects 3 and 5): reports
/// off their topic or bucket, physically impossible values, oversized reports, and a gateway
/// bringing in more beacons than its share. Each was accepted before.
@Suite("Site fusion: reports checked against their topic, physics and caps")
struct SiteFusionIntakeTests {
    typealias F = SiteFusionTests
    static let topics = SiteTopics(site: "shop", bucketCount: 16)

    static func record(_ beacon: BeaconID = F.tag, rssi: Double? = -60, distance: Double? = 2) -> GatewayRecord {
        GatewayRecord(
            beacon: beacon, rssi: rssi, meanRSSI: rssi, distance: distance, accuracy: 0.5, sampleCount: 3, seen: true,
            lastSeen: F.at(1))
    }

    static func header(_ gateway: String = "a", count: Int = 1) -> GatewayReportHeader {
        GatewayReportHeader(gateway: gateway, time: F.at(1), cycleLength: .seconds(1), recordCount: count)
    }

    /// The reason `body` was refused for, `nil` when it was taken.
    static func refusal(_ body: () throws -> Void) -> ReportRefusal.Reason? {
        do {
            try body()
            return nil
        } catch {
            return (error as? ReportRefusal)?.reason
        }
    }

    @Test("a records topic names its bucket and gateway; any other topic names nothing")
    func topicParsing() {
        #expect(
            Self.topics.origin(ofRecordsTopic: "beacond/site/shop/records/7/shop-west")
                == ReportOrigin(gateway: "shop-west", bucket: 7, bucketCount: 16))
        for topic in [
            "beacond/site/shop/records/999/shop-west", "beacond/site/shop/records/16/a", "beacond/site/shop/records/-1/a",
            "beacond/site/other/records/1/a", "beacond/site/shop/records/1", "beacond/site/shop/records/1/a/b",
            "beacond/site/shop/records//a", "beacond/site/shop/records/+1/a", "beacond/site/shop/records/٣/a",
        ] {
            #expect(Self.topics.origin(ofRecordsTopic: topic) == nil, "\(topic)")
        }
    }

    @Test("a report whose gateway differs from its topic's is refused whole")
    func gatewayAgainstTopic() throws {
        let fusion = try F.twoRooms()
        let bucket = Self.topics.bucket(of: F.tag)
        let origin = ReportOrigin(gateway: "b", bucket: bucket, bucketCount: 16)
        #expect(Self.refusal { try fusion.ingest([Self.record()], header: Self.header("a"), origin: origin) } == .wrongTopic)
        #expect(fusion.trackedCount == 0)
    }

    @Test("a report holding a beacon of another bucket than its topic's is refused whole")
    func recordAgainstBucket() throws {
        let fusion = try F.twoRooms()
        let bucket = Self.topics.bucket(of: F.tag)
        let wrong = (0..<500).map { BeaconID.iBeacon(uuidHigh: 1, uuidLow: 2, major: 3, minor: UInt16($0)) }
            .first { Self.topics.bucket(of: $0) != bucket }!
        let origin = ReportOrigin(gateway: "a", bucket: bucket, bucketCount: 16)
        let records = [Self.record(), Self.record(wrong)]
        #expect(Self.refusal { try fusion.ingest(records, header: Self.header(count: 2), origin: origin) } == .wrongBucket)
        #expect(fusion.trackedCount == 0)
        #expect(Self.refusal { try fusion.ingest([Self.record()], header: Self.header(), origin: origin) } == nil)
        #expect(fusion.trackedCount == 1)
    }

    @Test(
        "an RSSI, distance or power no radio gives is refused, and the report's other records with it",
        arguments: [(500.0, 2.0), (-1e6, 2.0), (Double.nan, 2.0), (-60.0, -5.0), (-60.0, Double.infinity), (21.0, 1.0)])
    func physicalRanges(rssi: Double, distance: Double) throws {
        let fusion = try F.twoRooms()
        let good = Self.record(BeaconID.iBeacon(uuidHigh: 9, uuidLow: 9, major: 9, minor: 9))
        let records = [good, Self.record(rssi: rssi, distance: distance)]
        #expect(Self.refusal { try fusion.ingest(records, header: Self.header(count: 2)) } == .outOfRange)
        #expect(fusion.trackedCount == 0)
        #expect(fusion.statistics.refusedReports == [.outOfRange: 1])
    }

    @Test("an encoded report of 65,535 records is refused whole, before any record is kept")
    func oversizedReport() throws {
        let fusion = try F.twoRooms()
        var encoder = GatewayReportEncoder(gateway: "a")
        encoder.begin(time: F.at(1), cycleLength: .seconds(1))
        for i in 0..<GatewayReportEncoder.maxRecords {
            encoder.append(Self.record(BeaconID.iBeacon(uuidHigh: 1, uuidLow: UInt64(i), major: 1, minor: 1)))
        }
        encoder.finish()
        let reason = encoder.bytes.withUnsafeBytes { bytes in Self.refusal { try fusion.ingest(report: bytes) } }
        #expect(reason == .tooManyRecords)
        #expect(fusion.trackedCount == 0)
        #expect(fusion.statistics.records == 0)
    }

    @Test("one gateway brings in at most maxBeaconsPerGateway beacons; another still can")
    func perGatewayCap() throws {
        let layout = try SiteLayout(gateways: [SiteGateway(id: "a", room: "hall"), SiteGateway(id: "b", room: "shop")])
        let fusion = try SiteFusion(layout: layout, configuration: SiteFusionConfiguration(maxBeaconsPerGateway: 10))
        let flood = (0..<20).map { Self.record(BeaconID.iBeacon(uuidHigh: 7, uuidLow: UInt64($0), major: 1, minor: 1)) }
        try fusion.ingest(flood, header: Self.header("a", count: 20))
        #expect(fusion.trackedCount == 10)
        #expect(fusion.statistics.refusedBeaconsOverGatewayCap == 10)
        try fusion.ingest([Self.record()], header: Self.header("b"))
        #expect(fusion.trackedCount == 11)
    }

    @Test("a gateway sends at most recordsPerReport records a report, which a hub takes by default")
    func encoderSplitsWithinTheHubsCap() {
        var encoder = GatewayReportEncoder(gateway: "a")
        encoder.begin(time: F.at(1), cycleLength: .seconds(1))
        while !encoder.isFull { encoder.append(Self.record()) }
        #expect(encoder.recordCount == GatewayReportEncoder.recordsPerReport)
        #expect(SiteFusionConfiguration().maxRecordsPerReport == GatewayReportEncoder.recordsPerReport)
    }
}
