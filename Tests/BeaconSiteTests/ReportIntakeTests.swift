import BeaconCore
import BeaconSiteReport
import Testing

@testable import BeaconSite

/// The hub's intake alone (`ReportIntake`): a report admitted whole or refused whole, in the
/// order the door asks, with no beacon, evidence or cycle behind it. (`SiteFusionIntakeTests`
/// show the same refusals through a hub, counted.)
@Suite("Report intake: a report admitted whole or refused whole, alone")
struct ReportIntakeTests {
    typealias F = SiteFusionTests

    static func layout() throws -> SiteLayout {
        try SiteLayout(gateways: [
            SiteGateway(id: "a", room: "hall", position: Vector3(x: 0, y: 0, z: 2)),
            SiteGateway(id: "b", room: "shop", position: Vector3(x: 10, y: 0, z: 2)),
        ])
    }

    static func intake(maxRecords: Int = 500) -> ReportIntake {
        var configuration = SiteFusionConfiguration()
        configuration.maxRecordsPerReport = maxRecords
        return ReportIntake(gatewayCount: 2, configuration: configuration)
    }

    static func record(rssi: Double = -60) -> GatewayRecord {
        GatewayRecord(
            beacon: F.tag, rssi: rssi, meanRSSI: rssi, distance: 2, accuracy: 0.5, sampleCount: 3, seen: true,
            lastSeen: F.at(1))
    }

    static func header(_ gateway: String, count: Int = 1) -> GatewayReportHeader {
        GatewayReportHeader(gateway: gateway, time: F.at(1), cycleLength: .seconds(1), recordCount: count)
    }

    static func encoded(_ gateway: String, format: GatewayReportFormat) -> [UInt8] {
        var encoder = GatewayReportEncoder(gateway: gateway, format: format)
        encoder.begin(time: F.at(1), cycleLength: .seconds(1))
        encoder.append(record())
        encoder.finish()
        return encoder.bytes
    }

    /// Why `records` from `gateway` (published under `origin`) were refused; `nil` when admitted.
    static func refusal(
        _ intake: inout ReportIntake, _ records: [GatewayRecord], from gateway: String, origin: ReportOrigin? = nil
    ) throws -> ReportRefusal.Reason? {
        let layout = try layout()
        do throws(ReportRefusal) {
            _ = try intake.admit(
                records, header: header(gateway, count: records.count), receivedAt: nil, origin: origin, layout: layout)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test("a binary report is admitted in place, a JSON one staged: its gateway, its clock offset, its hub time")
    func admitted() throws {
        let layout = try Self.layout()
        var intake = Self.intake()
        for format in GatewayReportFormat.allCases {
            let bytes = Self.encoded("b", format: format)
            let admitted = try bytes.withUnsafeBytes { buffer throws(ReportRefusal) in
                try intake.admit(report: buffer, receivedAt: nil, origin: nil, layout: layout)
            }
            #expect(admitted.gateway == 1, "\(format)")
            #expect(admitted.offset == 0 && admitted.time == F.at(1).nanosecondsSinceEpoch, "one clock: \(format)")
            #expect(intake.count(of: admitted.records) == 1, "\(format)")
            switch (format, admitted.records) {
            case (.binary, .binary), (.json, .staged): break
            default: Issue.record("\(format) came in as \(admitted.records)")
            }
        }
        #expect(intake.staged.map(\.beacon) == [F.tag], "the JSON report's record, staged")
    }

    @Test("refused in the door's order: the cap, then the gateway, then its topic, then the values")
    func order() throws {
        let wrongTopic = ReportOrigin(gateway: "b", bucket: SiteTopics.bucket(of: F.tag, count: 16), bucketCount: 16)
        var small = Self.intake(maxRecords: 1)
        #expect(try Self.refusal(&small, [Self.record(), Self.record()], from: "x", origin: wrongTopic) == .tooManyRecords)
        #expect(small.admission.unknownGateways.isEmpty, "an oversized report's gateway is never asked")
        var intake = Self.intake()
        let impossible = Self.record(rssi: 60)
        #expect(try Self.refusal(&intake, [impossible], from: "x", origin: wrongTopic) == .unknownGateway)
        #expect(intake.admission.unknownGateways == ["x"])
        #expect(try Self.refusal(&intake, [impossible], from: "a", origin: wrongTopic) == .wrongTopic)
        let ownTopic = ReportOrigin(gateway: "a", bucket: wrongTopic.bucket, bucketCount: 16)
        #expect(try Self.refusal(&intake, [impossible], from: "a", origin: ownTopic) == .outOfRange)
        #expect(try Self.refusal(&intake, [Self.record()], from: "a", origin: ownTopic) == nil)
    }
}
