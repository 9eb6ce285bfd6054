import BeaconAlertEngine
import BeaconCore
import Testing

/// The engine applies delivery windows: defer to the next opening or drop, and says which.
@Suite("Alert engine: delivery windows")
struct AlertEngineWindowTests {
    typealias F = EngineFixture

    static func rule(
        _ outside: String, from: String = "08:00", to: String = "18:00",
        repeat interval: RepeatInterval = .off
    ) throws -> AlertRule {
        let window = try DeliveryWindow(
            days: ["mon", "tue", "wed", "thu", "fri"], from: from, to: to,
            timeZone: "Europe/Paris", outsideWindow: outside)
        return AlertRule(id: "a", policy: try AlertPolicy(repeat: interval, window: window))
    }

    @Test("inside the window an alert is delivered at once")
    func inside() throws {
        var engine = try F.engine([try Self.rule("defer")])
        let events = try engine.fire(F.firing("a", at: F.t0), now: F.t0) // Monday 10:00 Paris
        #expect(events.map(\.summary) == ["created a due 2025-01-06T09:00:00.000Z", "delivered a due 2025-01-06T09:00:00.000Z"])
    }

    @Test("outside the window with defer: scheduled for the next opening, and the event says so")
    func deferred() throws {
        var engine = try F.engine([try Self.rule("defer")])
        let saturday = F.at("2025-01-11T10:00:00Z")
        let events = try engine.fire(F.firing("a", at: saturday), now: saturday)
        #expect(events.map(\.summary) == ["created a due 2025-01-13T07:00:00.000Z"]) // Monday 08:00 CET
        #expect(
            events.first?.joinedMessages
                == "deferred from 2025-01-11T10:00:00.000Z to 2025-01-13T07:00:00.000Z: outside the delivery window (mon, tue, wed, thu, fri 08:00–18:00 Europe/Paris)"
        )
        #expect(
            try engine.run(until: F.at("2025-01-14T00:00:00Z")).map(\.summary) == ["delivered a due 2025-01-13T07:00:00.000Z"])
    }

    @Test("outside the window with drop: not scheduled, and the cancellation says so")
    func dropped() throws {
        var engine = try F.engine([try Self.rule("drop")])
        let saturday = F.at("2025-01-11T10:00:00Z")
        let events = try engine.fire(F.firing("a", at: saturday), now: saturday)
        #expect(events.map(\.summary) == ["cancelled a due 2025-01-11T10:00:00.000Z"])
        #expect(
            events.first?.joinedMessages
                == "dropped: due 2025-01-11T10:00:00.000Z, outside the delivery window (mon, tue, wed, thu, fri 08:00–18:00 Europe/Paris)"
        )
        #expect(engine.nextDeadline == nil)
    }

    @Test("on the spring-forward day a 02:30–03:30 window defers to 03:00 CEST")
    func springForward() throws {
        let window = try DeliveryWindow(from: "02:30", to: "03:30", timeZone: "Europe/Paris")
        var engine = try F.engine([AlertRule(id: "a", policy: try AlertPolicy(window: window))])
        let time = F.at("2025-03-30T00:10:00Z") // 01:10 CET
        #expect(try engine.fire(F.firing("a", at: time), now: time).map(\.summary) == ["created a due 2025-03-30T01:00:00.000Z"])
    }

    @Test("on the fall-back day a 02:30–03:30 window is open through the repeated hour")
    func fallBack() throws {
        let window = try DeliveryWindow(from: "02:30", to: "03:30", timeZone: "Europe/Paris", outsideWindow: "drop")
        var engine = try F.engine([AlertRule(id: "a", policy: try AlertPolicy(firing: .everyActivation, window: window))])
        let repeatedHour = F.at("2025-10-26T01:15:00Z") // 02:15 CET, the second 02:15 of the day
        #expect(try engine.fire(F.firing("a", at: repeatedHour), now: repeatedHour).map(\.event.kind) == [.created, .delivered])
    }

    @Test("hourly repeats outside the window are merged into one delivery at the next opening")
    func repeatsMergedByDefer() throws {
        var engine = try F.engine([try Self.rule("defer", repeat: .hourly)])
        let friday = F.at("2025-01-10T15:30:00Z") // Friday 16:30 CET
        #expect(
            try engine.fire(F.firing("a", at: friday), now: friday).map(\.summary) == [
                "created a due 2025-01-10T15:30:00.000Z", "delivered a due 2025-01-10T15:30:00.000Z",
                "created a due 2025-01-10T16:30:00.000Z",
            ])
        let events = try engine.run(until: F.at("2025-01-13T08:00:00Z"))
        #expect(
            events.map(\.summary) == [
                "delivered a due 2025-01-10T16:30:00.000Z", // 17:30 CET
                "created a due 2025-01-13T07:00:00.000Z", // 18:30 CET is outside: Monday 08:00 CET
                "delivered a due 2025-01-13T07:00:00.000Z",
                "created a due 2025-01-13T07:30:00.000Z", // the series keeps its :30 phase
                "delivered a due 2025-01-13T07:30:00.000Z",
                "created a due 2025-01-13T08:30:00.000Z",
            ])
        // Occurrences 3 (Fri 18:30Z) to 63 (Mon 06:30Z) all fell into the closed window.
        #expect(
            events[3].joinedMessages
                == "skipped 61 occurrence(s) due by 2025-01-13T07:00:00.000Z (missed, or merged into a deferred delivery)")
    }

    @Test("hourly repeats outside the window with drop are skipped, and the next occurrence says how many")
    func repeatsDropped() throws {
        var engine = try F.engine([try Self.rule("drop", repeat: .hourly)])
        let friday = F.at("2025-01-10T15:30:00Z")
        _ = try engine.fire(F.firing("a", at: friday), now: friday)
        let events = try engine.run(until: F.at("2025-01-13T07:00:00Z"))
        #expect(
            events.map(\.summary) == [
                "delivered a due 2025-01-10T16:30:00.000Z",
                "created a due 2025-01-13T07:30:00.000Z", // Monday 08:30 CET, the first occurrence inside
            ])
        // Occurrences 2 (Fri 17:30Z) to 63 (Mon 06:30Z): 62 outside the window.
        #expect(
            events[1].joinedMessages
                == "skipped 62 occurrence(s) outside the delivery window (mon, tue, wed, thu, fri 08:00–18:00 Europe/Paris)")
    }

    @Test("a series none of whose occurrences can fall inside the window stops with an error")
    func neverInsideWindow() throws {
        let window = try DeliveryWindow(from: "08:00", to: "08:20", timeZone: "UTC", outsideWindow: "drop")
        var engine = try F.engine([AlertRule(id: "a", policy: try AlertPolicy(repeat: .hourly, window: window))])
        let events = try engine.fire(F.firing("a", at: F.at("2025-01-06T07:30:00Z")), now: F.at("2025-01-06T07:30:00Z"))
        #expect(events.map(\.summary) == ["error a due -"])
        #expect(
            events.first?.joinedMessages
                == "the series stops: no hourly occurrence falls inside the delivery window (every day 08:00–08:20 UTC); widen the window or change the repeat"
        )
        #expect(engine.nextDeadline == nil)
    }
}
