import BeaconCore
import BeaconSite
import BeaconSiteReport
import Testing

/// A gateway's clock as the hub aligns it, under reports that lie about their time (issue 26,
/// defect 2: one report claiming gateway `shop-west` with a future time made the hub drop that
/// gateway's real records for 101 s).
@Suite("Site fusion: a gateway's clock cannot be moved by one report")
struct SiteFusionClockTests {
    typealias F = SiteFusionTests

    /// The real gateway `a` reports each second, received 40 ms after it is sent.
    static func real(_ fusion: SiteFusion, at second: Int) {
        F.report(fusion, gateway: "a", at: Double(second), rssi: -60, receivedAt: F.at(Double(second)) + .milliseconds(40))
    }

    /// A report claiming to be `a`'s, dated `ahead` into the future, received now.
    static func forged(_ fusion: SiteFusion, at second: Int, ahead: Duration) -> ReportRefusal? {
        let time = F.at(Double(second)) + ahead
        let record = GatewayRecord(
            beacon: F.tag, rssi: -40, meanRSSI: -40, distance: 1, accuracy: 0.2, sampleCount: 5, seen: true, lastSeen: time)
        let header = GatewayReportHeader(gateway: "a", time: time, cycleLength: .seconds(1), recordCount: 1)
        do {
            try fusion.ingest([record], header: header, receivedAt: F.at(Double(second)))
            return nil
        } catch {
            return error
        }
    }

    @Test("a report from 100 s in the future is refused, and the real gateway's records keep being fused")
    func forgedFutureReport() throws {
        let fusion = try F.twoRooms(lateness: .milliseconds(500))
        for second in 1...10 { Self.real(fusion, at: second) }
        let refusal = try #require(Self.forged(fusion, at: 10, ahead: .seconds(100)))
        #expect(refusal.reason == .clock)
        var fused = 0
        for second in 11...40 {
            Self.real(fusion, at: second)
            fusion.advance(to: F.at(Double(second)) + .seconds(1)) { update in
                if update.beacons.contains(where: { $0.id == F.tag && $0.seenThisCycle }) { fused += 1 }
            }
        }
        #expect(fusion.statistics.staleRecords == 0)
        #expect(fusion.statistics.refusedReports == [.clock: 1])
        #expect(fused >= 29, "the real gateway's cycles fused after the forgery: \(fused) of 30")
    }

    @Test("a forgery repeated once a minute never takes the gateway's clock")
    func repeatedForgery() throws {
        let fusion = try F.twoRooms(lateness: .milliseconds(500))
        var refused = 0
        for second in 1...300 {
            Self.real(fusion, at: second)
            if second % 60 == 0, Self.forged(fusion, at: second, ahead: .seconds(100)) != nil { refused += 1 }
            fusion.advance(to: F.at(Double(second)) + .seconds(1)) { _ in }
        }
        #expect(refused == 5)
        #expect(fusion.statistics.staleRecords == 0)
    }

    @Test("a gateway whose clock really was stepped 30 s ahead is followed once its reports alone have said so for 10 s")
    func steppedClockIsFollowed() throws {
        let fusion = try F.twoRooms(lateness: .milliseconds(500))
        for second in 1...64 { Self.real(fusion, at: second) }
        var refusedAfterStep = 0
        var acceptedAfterStep = 0
        for second in 65...140 {
            if Self.forged(fusion, at: second, ahead: .seconds(30)) == nil {
                acceptedAfterStep += 1
            } else {
                #expect(acceptedAfterStep == 0, "once followed, the new clock stays accepted")
                refusedAfterStep += 1
            }
        }
        // Refused from second 65; the report of second 75 comes 10 s after the first refused.
        #expect(refusedAfterStep == 10)
        #expect(acceptedAfterStep == 66)
    }

    @Test("forty forged reports between the real ones never move the clock: the gateway stays heard")
    func forgedBurstBetweenRealReports() throws {
        let fusion = try F.twoRooms(lateness: .milliseconds(500))
        for second in 1...64 {
            Self.real(fusion, at: second)
            fusion.advance(to: F.at(Double(second)) + .seconds(1)) { _ in }
        }
        var refused = 0
        var fused = 0
        for second in 65...100 {
            Self.real(fusion, at: second)
            if second <= 84 {
                for _ in 0..<2 where Self.forged(fusion, at: second, ahead: .seconds(30)) != nil { refused += 1 }
            }
            fusion.advance(to: F.at(Double(second)) + .seconds(1)) { update in
                if update.beacons.contains(where: { $0.id == F.tag && $0.seenThisCycle }) { fused += 1 }
            }
        }
        #expect(refused == 40)
        #expect(fusion.statistics.staleRecords == 0)
        #expect(fused >= 35, "the real gateway's cycles fused during and after the forgeries: \(fused) of 36")
    }

    @Test("forged reports alone, for long, but disagreeing with each other, never take the clock")
    func disagreeingForgeriesAlone() throws {
        let fusion = try F.twoRooms(lateness: .milliseconds(500))
        for second in 1...64 { Self.real(fusion, at: second) }
        var taken = 0
        for second in 65...125 where Self.forged(fusion, at: second, ahead: .seconds(Int64(20 + second % 3 * 15))) == nil {
            taken += 1
        }
        #expect(taken == 0)
    }

    @Test("transit jitter within the tolerance is no reason to refuse")
    func jitterIsAccepted() throws {
        let fusion = try F.twoRooms(lateness: .milliseconds(500))
        for second in 1...100 {
            let delay = Duration.milliseconds(Int64(second * 37 % 900))
            F.report(fusion, gateway: "a", at: Double(second), rssi: -60, receivedAt: F.at(Double(second)) + delay)
        }
        #expect(fusion.statistics.refusedReports.isEmpty)
        #expect(fusion.statistics.reports == 100)
    }
}
