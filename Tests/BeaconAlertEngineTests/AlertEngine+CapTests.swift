import BeaconAlertEngine
import BeaconCore
import Testing

/// The pending cap: what it refuses is reported as an `error` event.
@Suite("Alert engine: pending cap")
struct AlertEngineCapTests {
    typealias F = EngineFixture

    @Test("beyond maxPending a new alert is refused with an error event")
    func refused() throws {
        let policy = try AlertPolicy(
            delay: .seconds(600),
            callbacks: try CallbackDestinations(
                callback: "http://127.0.0.1:8080/all",
                error: "http://127.0.0.1:8080/errors"))
        var engine = try F.engine([AlertRule(id: "a", policy: policy)], maxPending: 2)
        _ = try engine.fire(F.firing("a", F.beaconA, at: F.t0), now: F.t0)
        _ = try engine.fire(F.firing("a", F.beaconB, at: F.t0), now: F.t0)
        let events = try engine.fire(F.firing("a", F.beaconC, at: F.t0), now: F.t0)
        let error = try #require(events.first)
        #expect(events.count == 1)
        #expect(error.summary == "error a due 2025-01-06T09:10:00.000Z")
        #expect(error.event.beacon == F.beaconC)
        #expect(error.destination == "http://127.0.0.1:8080/errors")
        #expect(
            error.joinedMessages
                == "not scheduled: 2 alerts are already pending (maxPending); raise maxPending, shorten delays or cancel sooner")
        #expect(engine.pending.count == 2)
    }

    @Test("a refused firing does not count as the first one")
    func refusedIsNotFirst() throws {
        var engine = try F.engine(
            [
                AlertRule(id: "a", policy: try AlertPolicy(delay: .seconds(600), firing: .first)),
                AlertRule(id: "b", policy: try AlertPolicy(delay: .seconds(60))),
            ], maxPending: 1)
        _ = try engine.fire(F.firing("b", at: F.t0), now: F.t0)
        #expect(try engine.fire(F.firing("a", at: F.t0), now: F.t0).map(\.event.kind) == [.error])
        _ = try engine.advance(to: F.t0 + .seconds(60)) // b delivered: a slot is free
        let retry = F.t0 + .seconds(120)
        #expect(
            try engine.fire(F.firing("a", at: retry), now: retry).map(\.summary) == ["created a due 2025-01-06T09:12:00.000Z"])
    }

    @Test("superseding a pending alert reuses its slot")
    func supersedeAtCap() throws {
        var engine = try F.engine([AlertRule(id: "a", policy: try AlertPolicy(delay: .seconds(600)))], maxPending: 1)
        _ = try engine.fire(F.firing("a", at: F.t0), now: F.t0)
        let later = F.t0 + .seconds(60)
        #expect(try engine.fire(F.firing("a", at: later), now: later).map(\.event.kind) == [.cancelled, .created])
    }

    @Test("an immediate repeating alert at the cap is delivered, and its renewal refusal is reported")
    func renewalRefused() throws {
        var engine = try F.engine(
            [
                AlertRule(id: "wait", policy: try AlertPolicy(delay: .seconds(600))),
                AlertRule(id: "now", policy: try AlertPolicy(repeat: .hourly)),
            ], maxPending: 1)
        _ = try engine.fire(F.firing("wait", at: F.t0), now: F.t0)
        #expect(
            try engine.fire(F.firing("now", at: F.t0), now: F.t0).map(\.summary) == [
                "created now due 2025-01-06T09:00:00.000Z", "delivered now due 2025-01-06T09:00:00.000Z",
                "error now due 2025-01-06T10:00:00.000Z",
            ])
    }
}
