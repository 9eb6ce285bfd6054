import BeaconCore
import BeaconSiteReport
import Testing

@testable import BeaconSite

/// The hub's door for reports alone (`ReportAdmission`): which gateway, its seal, its clock.
/// (`SiteFusionIntakeTests` and `SignedReportTests` show the whole door through a hub, in order.)
@Suite("Report admission: the gateway, its seal and its clock, alone")
struct ReportAdmissionTests {
    typealias F = SiteFusionTests
    static let key = SignedReportTests.key

    static func layout() throws -> SiteLayout {
        try SiteLayout(gateways: [
            SiteGateway(id: "open", room: "hall", position: Vector3(x: 0, y: 0, z: 2)),
            SiteGateway(id: "signed", room: "shop", position: Vector3(x: 10, y: 0, z: 2), key: key),
        ])
    }

    static func admission() -> ReportAdmission {
        ReportAdmission(gatewayCount: 2, clockTolerance: .seconds(2), signatureWindow: .seconds(60))
    }

    static func header(_ gateway: String, second: Double = 10) -> GatewayReportHeader {
        GatewayReportHeader(gateway: gateway, time: F.at(second), cycleLength: .seconds(1), recordCount: 1)
    }

    /// The refusal's reason of `body`, or `nil` when it passed.
    static func reason(_ body: () throws(ReportRefusal) -> Void) -> ReportRefusal.Reason? {
        do throws(ReportRefusal) {
            try body()
            return nil
        } catch {
            return error.reason
        }
    }

    /// Checks `signed`'s report sealed with `sequence` and `key` (or not sealed), received at `second`.
    static func authenticate(
        _ admission: inout ReportAdmission, sequence: UInt64?, key: GatewayKey = Self.key, receivedAt second: Double? = nil
    ) -> ReportRefusal.Reason? {
        let bytes = sequence.map { SignedReport.seal(SignedReportTests.report("signed"), sequence: $0, key: key) } ?? []
        // The seal's parts point into its bytes: opened and checked while they are alive.
        return bytes.withUnsafeBytes { buffer in
            reason { () throws(ReportRefusal) in
                try admission.authenticate(
                    sequence == nil ? nil : SignedReport.open(buffer), key: Self.key, gateway: 1, id: "signed",
                    receivedAt: second.map(F.at))
            }
        }
    }

    @Test("a gateway of the site is its index in the layout; a stranger is refused and remembered for the log, 64 at most")
    func gateway() throws {
        var admission = Self.admission()
        let layout = try Self.layout()
        #expect(try admission.gateway(of: Self.header("signed"), in: layout) == 1)
        #expect(
            Self.reason { () throws(ReportRefusal) in _ = try admission.gateway(of: Self.header("x"), in: layout) }
                == .unknownGateway)
        #expect(admission.unknownGateways == ["x"])
        for i in 0..<100 { _ = try? admission.gateway(of: Self.header("stranger-\(i)"), in: layout) }
        #expect(admission.unknownGateways.count == 64)
    }

    @Test("a seal: there, the gateway's key's, each sequence once and above the last, live within the window")
    func seals() {
        var admission = Self.admission()
        #expect(Self.authenticate(&admission, sequence: nil) == .unsigned)
        #expect(Self.authenticate(&admission, sequence: 5, key: SignedReportTests.otherKey) == .badSignature)
        #expect(Self.authenticate(&admission, sequence: 5) == nil)
        #expect(Self.authenticate(&admission, sequence: 5) == .replayed, "taken already")
        #expect(Self.authenticate(&admission, sequence: 4) == .replayed, "not above the last taken")
        #expect(Self.authenticate(&admission, sequence: 6) == nil)
        // Live: sealed at 0 s by the gateway's clock, received an hour later.
        let sealedAtZero = SignedReportTests.sequence(at: 0)
        #expect(Self.authenticate(&admission, sequence: sealedAtZero, receivedAt: 3_600) == .replayed)
        #expect(Self.authenticate(&admission, sequence: sealedAtZero, receivedAt: 30) == nil)
    }

    @Test("live, the offset maps the gateway's clock onto the hub's; a report from beyond its clock is refused; replayed, none")
    func clock() throws {
        var admission = Self.admission()
        #expect(try admission.clockOffset(Self.header("open"), gateway: 0, receivedAt: nil) == 0)
        // Sent at 10 s by the gateway's clock, received at 13 s by the hub's.
        #expect(try admission.clockOffset(Self.header("open", second: 10), gateway: 0, receivedAt: F.at(13)) == 3_000_000_000)
        // Its next claims 30 s, received at 14 s: 16 s ahead of the clock it showed.
        #expect(
            Self.reason { () throws(ReportRefusal) in
                _ = try admission.clockOffset(Self.header("open", second: 30), gateway: 0, receivedAt: F.at(14))
            } == .clock)
        // Another gateway's clock is its own.
        #expect(try admission.clockOffset(Self.header("signed", second: 30), gateway: 1, receivedAt: F.at(14)) == -16_000_000_000)
    }
}
