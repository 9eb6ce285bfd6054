import BeaconCore
import Testing

@testable import BeaconSite

/// Which gateways are alive, alone (`GatewayLiveness`): online, offline, since when, what changed.
@Suite("Gateway liveness: online, offline, since when")
struct GatewayLivenessTests {
    static let second: Int64 = 1_000_000_000

    static func liveness() -> GatewayLiveness {
        GatewayLiveness(count: 2, offlineAfter: 10 * second, cycle: second)
    }

    @Test("before any report nothing changes; a gateway that never reports is offline the limit after the first report")
    func neverReported() {
        var liveness = Self.liveness()
        #expect(liveness.update(at: 100 * Self.second) == 0 && liveness.changed.isEmpty)
        liveness.noteReport(gateway: 0, at: 1 * Self.second)
        #expect(liveness.update(at: 5 * Self.second) == 0)
        #expect(liveness.online == [true, true])
        #expect(liveness.changes(at: 11 * Self.second))
        #expect(liveness.update(at: 11 * Self.second) == 2)
        #expect(liveness.changed == [0, 1] && liveness.online == [false, false])
        #expect(liveness.since == [11 * Self.second, 11 * Self.second], "from the last report (or the start) plus the limit")
        #expect(liveness.status(of: 1, id: "b").lastReport == nil)
    }

    @Test("a silent gateway goes offline once, and comes back online from the report that woke it")
    func offlineAndBack() {
        var liveness = Self.liveness()
        liveness.noteReport(gateway: 0, at: 1 * Self.second)
        liveness.noteReport(gateway: 1, at: 1 * Self.second)
        liveness.noteReport(gateway: 0, at: 9 * Self.second)
        #expect(liveness.update(at: 12 * Self.second) == 1)
        #expect(liveness.changed == [1] && liveness.online == [true, false])
        #expect(liveness.since[1] == 11 * Self.second)
        #expect(!liveness.changes(at: 13 * Self.second))
        #expect(liveness.update(at: 13 * Self.second) == 0 && liveness.changed.isEmpty, "changed once")
        liveness.noteReport(gateway: 1, at: 20 * Self.second)
        liveness.noteReport(gateway: 0, at: 20 * Self.second)
        #expect(liveness.update(at: 21 * Self.second) == -1)
        #expect(liveness.changed == [1] && liveness.online == [true, true] && liveness.since[1] == 20 * Self.second)
        let status = liveness.status(of: 1, id: "east")
        #expect(
            status.gateway == "east" && status.online && status.lastReport == Timestamp(nanosecondsSinceEpoch: 20 * Self.second))
    }

    @Test("reporting means a report in the last two cycles; an older report does not count, nor a report out of order")
    func reporting() {
        var liveness = Self.liveness()
        liveness.noteReport(gateway: 0, at: 10 * Self.second)
        liveness.noteReport(gateway: 0, at: 8 * Self.second)
        #expect(liveness.lastReport[0] == 10 * Self.second, "the latest stays")
        #expect(liveness.isReporting(0, at: 11 * Self.second))
        #expect(!liveness.isReporting(0, at: 12 * Self.second))
        #expect(!liveness.isReporting(1, at: 11 * Self.second), "never reported")
    }

    @Test("each update notes which gateways report: a silent gateway stops reporting long before it is offline")
    func reportingAtEachUpdate() {
        var liveness = GatewayLiveness(count: 3, offlineAfter: 10 * Self.second, cycle: Self.second)
        _ = liveness.update(at: 1 * Self.second)
        #expect(liveness.reporting == [false, false, false], "before any report")
        liveness.noteReport(gateway: 0, at: 1 * Self.second)
        liveness.noteReport(gateway: 1, at: 1 * Self.second)
        _ = liveness.update(at: 2 * Self.second)
        #expect(liveness.reporting == [true, true, false])
        #expect(liveness.online[2], "gateway 2 has never reported: online for now, but not reporting")
        liveness.noteReport(gateway: 0, at: 3 * Self.second)
        _ = liveness.update(at: 4 * Self.second)
        #expect(liveness.reporting == [true, false, false], "gateway 1's last report is three cycles old")
        #expect(liveness.online == [true, true, true], "and it is still online")
        liveness.noteReport(gateway: 1, at: 5 * Self.second)
        _ = liveness.update(at: 5 * Self.second)
        #expect(liveness.reporting == [false, true, false])
    }

    @Test("a room's silence: a gateway reports, none does while one is online, all offline; a room without gateways is quiet")
    func silenceOfARoom() {
        var liveness = GatewayLiveness(count: 2, offlineAfter: 10 * Self.second, cycle: Self.second)
        liveness.noteReport(gateway: 0, at: 1 * Self.second)
        liveness.noteReport(gateway: 1, at: 1 * Self.second)
        _ = liveness.update(at: 2 * Self.second)
        #expect(liveness.silence(of: [0, 1]) == .reporting)
        _ = liveness.update(at: 5 * Self.second)
        #expect(liveness.silence(of: [0, 1]) == .quiet, "silent, still online")
        _ = liveness.update(at: 12 * Self.second)
        #expect(liveness.silence(of: [0, 1]) == .offline)
        #expect(liveness.silence(of: []) == .quiet, "no gateway can speak of it: never offline")
    }
}
