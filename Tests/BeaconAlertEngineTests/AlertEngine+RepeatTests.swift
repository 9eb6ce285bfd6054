import BeaconAlertEngine
import BeaconCore
import Testing

/// Repeats are counted from the original scheduled time; only the next occurrence is pending.
@Suite("Alert engine: repeats")
struct AlertEngineRepeatTests {
    typealias F = EngineFixture

    @Test("an hourly repeat counts from the scheduled time, not from a late delivery")
    func countedFromSchedule() throws {
        var engine = try F.engine([AlertRule(id: "a", policy: try AlertPolicy(delay: .seconds(600), repeat: .hourly))])
        _ = try engine.fire(F.firing("a", at: F.t0), now: F.t0)
        #expect(
            try engine.advance(to: F.at("2025-01-06T09:10:00Z")).map(\.summary)
                == ["delivered a due 2025-01-06T09:10:00.000Z", "created a due 2025-01-06T10:10:00.000Z"])
        let late = try engine.advance(to: F.at("2025-01-06T10:40:00Z"))
        #expect(late.map(\.summary) == ["delivered a due 2025-01-06T10:10:00.000Z", "created a due 2025-01-06T11:10:00.000Z"])
        #expect(late[0].joinedMessages == "delivered 30m late (due 2025-01-06T10:10:00.000Z)")
        #expect(engine.pending.count == 1)
    }

    @Test(
        "every interval adds its span",
        arguments: [
            (RepeatInterval.minutely, ["2025-01-06T09:00:00Z", "2025-01-06T09:01:00Z", "2025-01-06T09:02:00Z"]),
            (.hourly, ["2025-01-06T09:00:00Z", "2025-01-06T10:00:00Z", "2025-01-06T11:00:00Z"]),
            (.daily, ["2025-01-06T09:00:00Z", "2025-01-07T09:00:00Z", "2025-01-08T09:00:00Z"]),
            (.weekly, ["2025-01-06T09:00:00Z", "2025-01-13T09:00:00Z", "2025-01-20T09:00:00Z"]),
        ])
    func intervals(_ interval: RepeatInterval, _ expected: [String]) throws {
        var engine = try F.engine([AlertRule(id: "a", policy: try AlertPolicy(repeat: interval))])
        var delivered = try engine.fire(F.firing("a", at: F.t0), now: F.t0).filter { $0.event.kind == .delivered }
        delivered += try engine.run(until: F.at(expected[2])).filter { $0.event.kind == .delivered }
        #expect(delivered.compactMap(\.event.scheduledFor) == expected.map(F.at))
    }

    @Test(
        "a daily repeat at 02:30 Paris across DST changes keeps the wall-clock time",
        arguments: [
            // Spring forward: 02:30 does not exist on 2025-03-30; delivered when the clocks jump (03:00 CEST = 01:00Z).
            (
                "2025-03-28T01:30:00Z",
                ["2025-03-28T01:30:00Z", "2025-03-29T01:30:00Z", "2025-03-30T01:00:00Z", "2025-03-31T00:30:00Z"]
            ),
            // Fall back: 02:30 happens twice on 2025-10-26; delivered at the first (CEST, 00:30Z).
            (
                "2025-10-25T00:30:00Z",
                ["2025-10-25T00:30:00Z", "2025-10-26T00:30:00Z", "2025-10-27T01:30:00Z", "2025-10-28T01:30:00Z"]
            ),
        ])
    func dailyAcrossDST(_ start: String, _ expected: [String]) throws {
        let zoneOnly = try DeliveryWindow(timeZone: "Europe/Paris")
        let policy = try AlertPolicy(notBefore: F.at(start), repeat: .daily, window: zoneOnly)
        var engine = try F.engine([AlertRule(id: "a", policy: policy)])
        let before = F.at(start) - .seconds(3600)
        _ = try engine.fire(F.firing("a", at: before), now: before)
        let delivered = try engine.run(until: F.at(expected[3])).filter { $0.event.kind == .delivered }
        #expect(delivered.compactMap(\.event.scheduledFor) == expected.map(F.at))
    }

    @Test("a daily repeat inside a 02:30–03:30 window across spring-forward")
    func dailyInsideNightWindow() throws {
        let window = try DeliveryWindow(from: "02:30", to: "03:30", timeZone: "Europe/Paris", outsideWindow: "drop")
        let policy = try AlertPolicy(notBefore: F.at("2025-03-29T01:30:00Z"), repeat: .daily, window: window)
        var engine = try F.engine([AlertRule(id: "a", policy: policy)])
        let fired = F.at("2025-03-29T01:00:00Z")
        _ = try engine.fire(F.firing("a", at: fired), now: fired)
        let events = try engine.run(until: F.at("2025-03-31T00:30:00Z"))
        #expect(
            events.filter { $0.event.kind == .delivered }.compactMap(\.event.scheduledFor)
                == ["2025-03-29T01:30:00Z", "2025-03-30T01:00:00Z", "2025-03-31T00:30:00Z"].map(F.at))
        #expect(!events.contains { $0.event.kind == .cancelled }) // 03:00 CEST is inside the shortened window
    }

    @Test("after a long pause only one late delivery happens, and the missed occurrences are reported")
    func longPause() throws {
        var engine = try F.engine([AlertRule(id: "a", policy: try AlertPolicy(delay: .seconds(600), repeat: .hourly))])
        _ = try engine.fire(F.firing("a", at: F.t0), now: F.t0)
        _ = try engine.advance(to: F.at("2025-01-06T09:10:00Z")) // occurrence 0; 10:10 now pending
        let events = try engine.advance(to: F.at("2025-01-06T15:25:00Z"))
        #expect(events.map(\.summary) == ["delivered a due 2025-01-06T10:10:00.000Z", "created a due 2025-01-06T16:10:00.000Z"])
        // 11:10, 12:10, 13:10, 14:10, 15:10 were missed.
        #expect(
            events[1].joinedMessages
                == "skipped 5 occurrence(s) due by 2025-01-06T15:25:00.000Z (missed, or merged into a deferred delivery)")
    }

    @Test("a repeating alert never holds more than one pending slot")
    func oneSlot() throws {
        var engine = try F.engine([AlertRule(id: "a", policy: try AlertPolicy(repeat: .minutely))], maxPending: 1)
        _ = try engine.fire(F.firing("a", at: F.t0), now: F.t0)
        let events = try engine.run(until: F.t0 + .seconds(600))
        #expect(events.filter { $0.event.kind == .delivered }.count == 10)
        #expect(!events.contains { $0.event.kind == .error })
        #expect(engine.pending.count == 1)
    }
}
