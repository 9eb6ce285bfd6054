import BeaconAlertEngine
import BeaconCore
import Testing

/// Cancelling one instance by its key (issue 39, item 4: AlertFlag's `action=cancel&uuid=…`), on
/// a manual clock: every time below is written out, none is read from a clock.
@Suite("Alert engine: cancelling one instance")
struct AlertEngineInstanceCancellationTests {
    typealias F = EngineFixture

    static let cancelledHook = "http://127.0.0.1:9/cancelled"

    static func delayed(repeat interval: RepeatInterval = .off, window: DeliveryWindow? = nil) throws -> AlertRule {
        AlertRule(
            id: "visit",
            policy: try AlertPolicy(
                delay: .seconds(600), repeat: interval, window: window,
                callbacks: try CallbackDestinations(callback: "http://127.0.0.1:9/other", cancelled: Self.cancelledHook)))
    }

    static func reminding() throws -> AlertRule {
        AlertRule(
            id: "visit",
            policy: try AlertPolicy(
                callbacks: try CallbackDestinations(callback: "http://127.0.0.1:9/other", cancelled: Self.cancelledHook),
                remind: try ReminderPolicy(every: .seconds(120), max: 5)))
    }

    static func instance(_ due: Timestamp) -> AlertInstance {
        AlertInstance(key: AlertKey(alertID: "visit", beacon: F.beaconA), due: due)
    }

    @Test(
        "a scheduled instance, named by its created event, is cancelled before delivery: one event names who, the callback is routed"
    )
    func scheduledCancelled() throws {
        var engine = try F.engine([try Self.delayed()])
        let created = try engine.fire(F.firing("visit", at: F.t0), now: F.t0)
        #expect(created.map(\.summary) == ["created visit due 2025-01-06T09:10:00.000Z"])
        let key = created[0].event.instanceKey
        #expect(created[0].event.jsonLine.contains(#""instance":"\#(key)""#), "the created event names the key to cancel by")
        let instance = try #require(AlertInstance(key))

        let (events, outcome) = try engine.handle(
            .answer(.cancelled, instance: instance, by: "desk via http"), now: F.t0 + .seconds(60))
        #expect(events.map(\.summary) == ["cancelled visit due 2025-01-06T09:10:00.000Z"])
        #expect(events[0].event.answeredBy == "desk via http")
        #expect(events[0].destination == Self.cancelledHook)
        #expect(
            events[0].joinedMessages
                == "cancelled by desk via http before its delivery, due 2025-01-06T09:10:00.000Z")
        #expect(events[0].event.jsonLine.contains(#""by":"desk via http""#))
        guard case .answered(let receipt) = outcome else {
            Issue.record("not cancelled: \(outcome)")
            return
        }
        #expect(receipt.answer.kind == .cancelled && !receipt.repeated && receipt.stoppedReminder == nil)
        #expect(engine.pending.isEmpty)
        #expect(try engine.run(until: F.t0 + .seconds(3600)).isEmpty, "never delivered")

        let state = engine.state
        #expect(throws: AlertAnswerError.notScheduled(instance)) {
            try engine.handle(.answer(.cancelled, instance: instance, by: "desk via http"), now: F.t0 + .seconds(90))
        }
        #expect(engine.state == state, "a refused cancellation changes nothing")
    }

    @Test("cancelling a repeating alert's scheduled occurrence ends its series")
    func repeatingSeriesEnds() throws {
        var engine = try F.engine([try Self.delayed(repeat: .hourly)])
        _ = try engine.fire(F.firing("visit", at: F.t0), now: F.t0)
        let first = try engine.advance(to: F.t0 + .seconds(600))
        #expect(first.map(\.event.kind).contains(.delivered))
        let next = try #require(engine.pending.first)
        #expect(next.occurrence == 1)
        let (events, _) = try engine.handle(
            .answer(.cancelled, instance: Self.instance(next.dueAt), by: "desk via cli"), now: F.t0 + .seconds(700))
        #expect(events.map(\.event.kind) == [.cancelled])
        #expect(engine.pending.isEmpty)
        #expect(try engine.run(until: F.t0 + .seconds(86_400)).isEmpty)
    }

    @Test("a reminding instance reminds no more; the same cancellation again is harmless; it is then answered")
    func remindingCancelled() throws {
        let store = InMemoryAlertStateStore()
        var engine = try F.engine([try Self.reminding()], store: store)
        _ = try engine.fire(F.firing("visit", at: F.t0), now: F.t0)
        _ = try engine.advance(to: F.t0 + .seconds(120)) // reminder 1 delivered, reminder 2 pending
        let (events, outcome) = try engine.handle(
            .answer(.cancelled, instance: Self.instance(F.t0), by: "nurse-2 via mqtt"), now: F.t0 + .seconds(150))
        #expect(events.map(\.event.kind) == [.cancelled])
        #expect(events[0].event.attempt == 2)
        #expect(events[0].event.instanceKey == Self.instance(F.t0).description)
        #expect(events[0].destination == Self.cancelledHook)
        #expect(
            events[0].joinedMessages
                == "cancelled by nurse-2 via mqtt after 2 deliveries; reminder 2, due 2025-01-06T09:04:00.000Z, will not be sent")
        guard case .answered(let receipt) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(receipt.stoppedReminder == 2)
        #expect(engine.pending.isEmpty)
        #expect(try engine.run(until: F.t0 + .seconds(3600)).isEmpty, "no reminder after the cancellation")

        let (again, repeated) = try engine.handle(
            .answer(.cancelled, instance: Self.instance(F.t0), by: "someone via http"), now: F.t0 + .seconds(200))
        #expect(again.isEmpty)
        guard case .answered(let second) = repeated else {
            Issue.record("\(repeated)")
            return
        }
        #expect(second.repeated && second.answer.by == "nurse-2 via mqtt")

        // Kept across a restart: the instance stays answered, and an acknowledgement is refused.
        var restarted = try F.engine([try Self.reminding()], store: store)
        #expect(restarted.state.history.values.first?.answer?.kind == .cancelled)
        #expect(restarted.state.history.values.first?.isAwaitingAnswer == false)
        do {
            _ = try restarted.handle(
                .answer(.acknowledged, instance: Self.instance(F.t0), by: "late via http"), now: F.t0 + .seconds(300))
            Issue.record("a cancelled instance was acknowledged")
        } catch let error as AlertAnswerError {
            #expect(error.description.contains("was already cancelled by nurse-2 via mqtt"))
        }
    }

    @Test("refused with a reason, changing nothing: delivered without a reminder, moved by its window, superseded, never")
    func refusals() throws {
        // Delivered at once, no reminder: nothing to cancel.
        var plain = try F.engine([AlertRule(id: "visit")])
        _ = try plain.fire(F.firing("visit", at: F.t0), now: F.t0)
        #expect(throws: AlertAnswerError.nothingToCancel(Self.instance(F.t0))) {
            try plain.handle(.answer(.cancelled, instance: Self.instance(F.t0), by: "a"), now: F.t0 + .seconds(1))
        }
        // A later delivery supersedes the first.
        let later = F.t0 + .seconds(600)
        _ = try plain.fire(F.firing("visit", at: later), now: later)
        #expect(throws: AlertAnswerError.superseded(Self.instance(F.t0), latest: Self.instance(later))) {
            try plain.handle(.answer(.cancelled, instance: Self.instance(F.t0), by: "a"), now: later)
        }
        #expect(throws: AlertAnswerError.notScheduled(Self.instance(later + .seconds(1)))) {
            try plain.handle(.answer(.cancelled, instance: Self.instance(later + .seconds(1)), by: "a"), now: later)
        }

        // Fired at 17:45 Paris, due at 17:55, just before the window closes; handled at 18:20 (the daemon was
        // down): moved to Tuesday 08:00, and the old key says so.
        let window = try DeliveryWindow(
            days: ["mon", "tue", "wed", "thu", "fri"], from: "08:00", to: "18:00", timeZone: "Europe/Paris",
            outsideWindow: "defer")
        var windowed = try F.engine([try Self.delayed(window: window)])
        let evening = F.at("2025-01-06T16:45:00Z")
        _ = try windowed.fire(F.firing("visit", at: evening), now: evening)
        let moved = try windowed.advance(to: evening + .seconds(2100))
        #expect(moved.map(\.summary) == ["created visit due 2025-01-07T07:00:00.000Z"])
        let stale = Self.instance(evening + .seconds(600))
        let current = Self.instance(F.at("2025-01-07T07:00:00Z"))
        let state = windowed.state
        #expect(throws: AlertAnswerError.rescheduled(stale, current: current)) {
            try windowed.handle(.answer(.cancelled, instance: stale, by: "a"), now: evening + .seconds(2200))
        }
        #expect(windowed.state == state)
        let (events, _) = try windowed.handle(.answer(.cancelled, instance: current, by: "a"), now: evening + .seconds(2200))
        #expect(events.map(\.summary) == ["cancelled visit due 2025-01-07T07:00:00.000Z"])
    }
}
