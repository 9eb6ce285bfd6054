import BeaconCore
import BeaconSite
import BeaconSiteReport
import Testing

/// Gateways that sign their reports (issue 26, item 2): a hub that holds a gateway's key takes
/// only reports sealed with it, each sequence once, and none from outside its window.
@Suite("Signed gateway reports")
struct SignedReportTests {
    typealias F = SiteFusionTests
    static let key = GatewayKey(hex: "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff")!
    static let otherKey = GatewayKey(hex: "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100")!

    static func fusion() throws -> SiteFusion {
        let layout = try SiteLayout(gateways: [
            SiteGateway(id: "a", room: "hall", position: Vector3(x: 0, y: 0, z: 2), key: key),
            SiteGateway(id: "b", room: "shop", position: Vector3(x: 10, y: 0, z: 2)),
        ])
        return try SiteFusion(layout: layout, configuration: SiteFusionConfiguration(lateness: .zero))
    }

    static func report(_ gateway: String = "a", second: Double = 1, rssi: Double = -60) -> [UInt8] {
        var encoder = GatewayReportEncoder(gateway: gateway)
        encoder.begin(time: F.at(second), cycleLength: .seconds(1))
        encoder.append(
            GatewayRecord(
                beacon: F.tag, rssi: rssi, meanRSSI: rssi, distance: 2, accuracy: 0.5, sampleCount: 3, seen: true,
                lastSeen: F.at(second)))
        encoder.finish()
        return encoder.bytes
    }

    /// The reason `bytes` were refused for, received at `second`; `nil` when taken.
    static func ingest(_ fusion: SiteFusion, _ bytes: [UInt8], receivedAt second: Double = 1) -> ReportRefusal.Reason? {
        bytes.withUnsafeBytes { buffer -> ReportRefusal.Reason? in
            do {
                try fusion.ingest(report: buffer, receivedAt: F.at(second))
                return nil
            } catch {
                return (error as? ReportRefusal)?.reason
            }
        }
    }

    static func sequence(at second: Double) -> UInt64 { UInt64(F.at(second).nanosecondsSinceEpoch) }

    @Test("a sealed report opens to its sequence and report, and verifies only with its key")
    func sealAndOpen() throws {
        let report = Self.report()
        let sealed = SignedReport.seal(report, sequence: 42, key: Self.key)
        #expect(sealed.count == report.count + SignedReport.overhead)
        try sealed.withUnsafeBytes { bytes in
            let parts = try #require(SignedReport.open(bytes))
            #expect(parts.sequence == 42)
            #expect(Array(parts.report) == report)
            #expect(parts.verifies(with: Self.key))
            #expect(!parts.verifies(with: Self.otherKey))
        }
        // One flipped bit anywhere (sequence, code or report) fails the check.
        for index in [5, 20, sealed.count - 1] {
            var damaged = sealed
            damaged[index] ^= 0x01
            damaged.withUnsafeBytes { bytes in #expect(SignedReport.open(bytes)?.verifies(with: Self.key) == false) }
        }
    }

    @Test("from a gateway with a key: unsigned, wrongly signed, replayed and stale reports are refused; a sealed one is taken")
    func hubChecks() throws {
        let fusion = try Self.fusion()
        #expect(Self.ingest(fusion, Self.report()) == .unsigned)
        #expect(
            Self.ingest(fusion, SignedReport.seal(Self.report(), sequence: Self.sequence(at: 1), key: Self.otherKey))
                == .badSignature)
        let good = SignedReport.seal(Self.report(), sequence: Self.sequence(at: 1), key: Self.key)
        #expect(fusion.trackedCount == 0)
        #expect(Self.ingest(fusion, good) == nil)
        #expect(fusion.trackedCount == 1)
        // The same bytes again, and an older sequence: replays.
        #expect(Self.ingest(fusion, good, receivedAt: 2) == .replayed)
        #expect(
            Self.ingest(fusion, SignedReport.seal(Self.report(second: 2), sequence: 5, key: Self.key), receivedAt: 2) == .replayed
        )
        // A fresh sequence sealed two minutes before it arrives: outside the 60 s window.
        let late = SignedReport.seal(Self.report(second: 3), sequence: Self.sequence(at: 3), key: Self.key)
        #expect(Self.ingest(fusion, late, receivedAt: 123) == .replayed)
        #expect(fusion.statistics.refusedReports == [.unsigned: 1, .badSignature: 1, .replayed: 3])
        #expect(fusion.statistics.reports == 1)
        // A gateway without a key still sends unsigned reports.
        #expect(Self.ingest(fusion, Self.report("b")) == nil)
    }

    @Test(
        "a report sealed 55 s ahead of the hub's clock is taken once, and silences nobody: the next, sealed by the clock, is taken"
    )
    func sealedAheadOfTheClock() throws {
        let fusion = try Self.fusion()
        let ahead = SignedReport.seal(Self.report(second: 1), sequence: Self.sequence(at: 56), key: Self.key)
        #expect(Self.ingest(fusion, ahead, receivedAt: 1) == nil)
        #expect(Self.ingest(fusion, ahead, receivedAt: 2) == .replayed, "taken once only")
        for second in 2...10 {
            let sealed = SignedReport.seal(
                Self.report(second: Double(second)), sequence: Self.sequence(at: Double(second)), key: Self.key)
            #expect(Self.ingest(fusion, sealed, receivedAt: Double(second)) == nil, "second \(second)")
        }
        // Older than the floor (the last report taken by the clock): still a replay.
        let old = SignedReport.seal(Self.report(second: 11), sequence: Self.sequence(at: 9), key: Self.key)
        #expect(Self.ingest(fusion, old, receivedAt: 11) == .replayed)
        // The sequence ahead is remembered until the floor passes it.
        #expect(Self.ingest(fusion, ahead, receivedAt: 12) == .replayed)
        #expect(fusion.statistics.reports == 10)
    }

    @Test("a gateway whose clock runs ahead of the hub's is taken report after report, each sequence once")
    func gatewayClockAhead() throws {
        let fusion = try Self.fusion()
        var sealed: [[UInt8]] = []
        for second in 1...200 {
            let bytes = SignedReport.seal(
                Self.report(second: Double(second)), sequence: Self.sequence(at: Double(second) + 3), key: Self.key)
            #expect(Self.ingest(fusion, bytes, receivedAt: Double(second)) == nil, "second \(second)")
            sealed.append(bytes)
        }
        // Every one of them again: replays, the recent (remembered) and the old (under the floor).
        let replays = sealed.enumerated().filter { Self.ingest(fusion, $0.element, receivedAt: 201) == .replayed }
        #expect(replays.count == 200)
    }

    @Test("a forged report in the name of a signing gateway changes no room")
    func forgeryChangesNothing() throws {
        let fusion = try Self.fusion()
        for second in 1...5 {
            let sealed = SignedReport.seal(
                Self.report(second: Double(second)), sequence: Self.sequence(at: Double(second)), key: Self.key)
            #expect(Self.ingest(fusion, sealed, receivedAt: Double(second)) == nil)
        }
        fusion.advance(to: F.at(6)) { _ in }
        #expect(fusion.latestUpdate.beacons.first?.room == "hall")
        // Loud in the "shop" through gateway a's name, unsigned and wrongly signed.
        for second in 6...12 {
            _ = Self.ingest(fusion, Self.report(second: Double(second), rssi: -20), receivedAt: Double(second))
            _ = Self.ingest(
                fusion,
                SignedReport.seal(
                    Self.report(second: Double(second), rssi: -20), sequence: Self.sequence(at: Double(second)),
                    key: Self.otherKey),
                receivedAt: Double(second))
        }
        var rooms: [String?] = []
        fusion.advance(to: F.at(13)) { update in rooms.append(update.beacons.first?.room) }
        #expect(rooms.allSatisfy { $0 == "hall" || $0 == nil })
        #expect(fusion.statistics.reports == 5)
    }

    @Test("keys are 16 to 64 bytes of hexadecimal, and never printed")
    func keys() {
        #expect(GatewayKey(hex: String(repeating: "ab", count: 16)) != nil)
        #expect(GatewayKey(hex: "0x" + String(repeating: "AB", count: 64)) != nil)
        #expect(GatewayKey(hex: String(repeating: "ab", count: 15)) == nil)
        #expect(GatewayKey(hex: String(repeating: "ab", count: 65)) == nil)
        #expect(GatewayKey(hex: String(repeating: "zz", count: 16)) == nil)
        #expect(GatewayKey(hex: String(repeating: "a", count: 33)) == nil)
        #expect("\(Self.key)" == "GatewayKey(32 bytes)")
    }
}
