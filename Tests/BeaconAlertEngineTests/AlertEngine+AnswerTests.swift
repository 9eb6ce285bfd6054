import BeaconAlertEngine
import BeaconCore
import Testing

/// Acknowledge, dismiss, reminders until answered, escalation and suppression (issue 29), on a
/// manual clock: every time below is written out, none is read from a clock.
@Suite("Alert engine: answers, reminders and escalation")
struct AlertEngineAnswerTests {
    typealias F = EngineFixture

    static func reminding(
        every: Duration = .seconds(120), max: Int = 5, escalateAfter: Int? = nil, window: DeliveryWindow? = nil
    ) throws -> AlertRule {
        let escalation = try escalateAfter.map { after throws in try EscalationPolicy(after: after, to: ["pager"]) }
        return AlertRule(
            id: "exit",
            policy: try AlertPolicy(
                window: window, remind: try ReminderPolicy(every: every, max: max, escalation: escalation)))
    }

    static func instance(_ due: Timestamp, _ beacon: BeaconID = F.beaconA) -> AlertInstance {
        AlertInstance(key: AlertKey(alertID: "exit", beacon: beacon), due: due)
    }

    @Test("an unanswered alert is reminded every 2 minutes, up to max, with the same instance and a counted attempt")
    func remindedUntilMax() throws {
        var engine = try F.engine([try Self.reminding(max: 3)])
        let first = try engine.fire(F.firing("exit", at: F.t0), now: F.t0).filter { $0.event.kind == .delivered }
        let reminders = try engine.run(until: F.t0 + .seconds(3600)).filter { $0.event.kind == .delivered }
        #expect(reminders.map(\.event.time) == [120, 240, 360].map { F.t0 + .seconds($0) })
        #expect(reminders.map(\.event.attempt) == [1, 2, 3])
        let all = first + reminders
        #expect(Set(all.map(\.event.instanceKey)).count == 1, "one instance")
        #expect(Set(all.map(\.event.idempotencyKey)).count == 4, "each delivery its own key")
        #expect(reminders[0].joinedMessages == "reminder 1 of 3: not acknowledged since 2025-01-06T09:00:00.000Z")
        #expect(engine.pending.isEmpty, "no reminder after max")
    }

    @Test("an acknowledgement stops the reminders; the same acknowledgement again changes nothing")
    func acknowledgementStops() throws {
        var engine = try F.engine([try Self.reminding()])
        _ = try engine.fire(F.firing("exit", at: F.t0), now: F.t0)
        _ = try engine.advance(to: F.t0 + .seconds(120)) // reminder 1
        let (events, outcome) = try engine.handle(
            .answer(.acknowledged, instance: Self.instance(F.t0), by: "nurse-2 via http"), now: F.t0 + .seconds(150))
        #expect(events.map(\.event.kind) == [.acknowledged])
        #expect(events[0].event.answeredBy == "nurse-2 via http")
        #expect(events[0].event.instanceKey == Self.instance(F.t0).description)
        #expect(events[0].joinedMessages.hasPrefix("acknowledged by nurse-2 via http after 2 deliveries"))
        guard case .answered(let receipt) = outcome else {
            Issue.record("not answered: \(outcome)")
            return
        }
        #expect(!receipt.repeated && receipt.stoppedReminder == 2)
        #expect(engine.pending.isEmpty)
        #expect(try engine.run(until: F.t0 + .seconds(3600)).isEmpty, "no reminder after the acknowledgement")

        let (again, repeated) = try engine.handle(
            .answer(.acknowledged, instance: Self.instance(F.t0), by: "nurse-3 via mqtt"), now: F.t0 + .seconds(200))
        #expect(again.isEmpty)
        guard case .answered(let second) = repeated else {
            Issue.record("\(repeated)")
            return
        }
        #expect(second.repeated && second.answer.by == "nurse-2 via http", "the first answer stands")
    }

    @Test("unknown, superseded and already-answered instances are refused with a reason and change nothing")
    func refusals() throws {
        var engine = try F.engine([try Self.reminding()])
        #expect(throws: AlertAnswerError.unknownInstance(Self.instance(F.t0))) {
            try engine.handle(.answer(.acknowledged, instance: Self.instance(F.t0), by: "x"), now: F.t0)
        }
        _ = try engine.fire(F.firing("exit", at: F.t0), now: F.t0)
        _ = try engine.handle(.answer(.dismissed, instance: Self.instance(F.t0), by: "a"), now: F.t0 + .seconds(10))
        let state = engine.state
        do {
            _ = try engine.handle(.answer(.acknowledged, instance: Self.instance(F.t0), by: "b"), now: F.t0 + .seconds(20))
            Issue.record("an acknowledgement of a dismissed alert was taken")
        } catch let error as AlertAnswerError {
            guard case .alreadyAnswered = error else {
                Issue.record("\(error)")
                return
            }
            #expect(error.description.contains("already dismissed by a at 2025-01-06T09:00:10.000Z"))
        }
        #expect(engine.state == state)
        // Two more instances: the unanswered second can no longer be answered, and says which one can.
        let second = F.t0 + .seconds(600)
        let third = F.t0 + .seconds(1200)
        _ = try engine.fire(F.firing("exit", at: second), now: second)
        _ = try engine.fire(F.firing("exit", at: third), now: third)
        #expect(throws: AlertAnswerError.superseded(Self.instance(second), latest: Self.instance(third))) {
            try engine.handle(.answer(.acknowledged, instance: Self.instance(second), by: "c"), now: third)
        }
        // A time between them, before the first or after the latest names an instance that never was.
        for never in [F.t0 - .seconds(1), F.t0 + .seconds(1), third - .seconds(1), third + .seconds(1)] {
            #expect(throws: AlertAnswerError.unknownInstance(Self.instance(never))) {
                try engine.handle(.answer(.acknowledged, instance: Self.instance(never), by: "d"), now: third)
            }
        }
        #expect(AlertInstance("exit|ibeacon:nope|delivered|12") == nil)
        #expect(AlertInstance(Self.instance(third).description) == Self.instance(third))
    }

    @Test("a history remembers its last 16 earlier instances: older ones are answered as never known")
    func earlierInstancesBounded() throws {
        var engine = try F.engine([AlertRule(id: "exit")])
        let dues = (0..<20).map { F.t0 + .seconds(600 * $0) }
        for due in dues { _ = try engine.fire(F.firing("exit", at: due), now: due) }
        let history = try #require(engine.state.history[AlertKey(alertID: "exit", beacon: F.beaconA)])
        #expect(history.instanceDue == dues.last)
        #expect(history.earlierInstanceDues == Array(dues.dropLast().suffix(AlertHistory.rememberedEarlierInstances)))
        let latest = Self.instance(dues[19])
        #expect(throws: AlertAnswerError.superseded(Self.instance(dues[3]), latest: latest)) {
            try engine.handle(.answer(.acknowledged, instance: Self.instance(dues[3]), by: "a"), now: dues[19])
        }
        #expect(throws: AlertAnswerError.unknownInstance(Self.instance(dues[2]))) {
            try engine.handle(.answer(.acknowledged, instance: Self.instance(dues[2]), by: "a"), now: dues[19])
        }
    }

    @Test("escalation: from the delivery after `after` unanswered ones, events name the escalation sinks")
    func escalation() throws {
        var engine = try F.engine([try Self.reminding(max: 4, escalateAfter: 3)])
        let events = try engine.fire(F.firing("exit", at: F.t0), now: F.t0) + engine.run(until: F.t0 + .seconds(3600))
        let deliveries = events.filter { $0.event.kind == .delivered }
        #expect(deliveries.map(\.event.attempt) == [0, 1, 2, 3, 4])
        #expect(deliveries.map(\.event.escalatedTo) == [[], [], [], ["pager"], ["pager"]])
        #expect(deliveries[3].joinedMessages.contains("escalated to pager: unanswered after 3 deliveries"))
    }

    @Test("a reminder due while the delivery window is closed waits for it to open")
    func reminderWaitsForWindow() throws {
        let window = try DeliveryWindow(days: nil, from: "08:00", to: "09:03", timeZone: "UTC", outsideWindow: "drop")
        var engine = try F.engine([try Self.reminding(every: .seconds(120), window: window)])
        _ = try engine.fire(F.firing("exit", at: F.t0), now: F.t0)
        let deliveries = try engine.run(until: F.at("2025-01-07T09:00:00Z")).filter { $0.event.kind == .delivered }
        // 09:02 is inside; 09:04 is not: it waits for 08:00 the next day (not dropped, whatever
        // outsideWindow says), and the series goes on from there.
        #expect(
            deliveries.map(\.event.time)
                == [
                    "2025-01-06T09:02:00Z", "2025-01-07T08:00:00Z", "2025-01-07T08:02:00Z", "2025-01-07T08:04:00Z",
                    "2025-01-07T08:06:00Z",
                ].map(F.at))
        #expect(deliveries.map(\.event.attempt) == [1, 2, 3, 4, 5])
    }

    @Test("a dismissal with suppression keeps the alert from firing for that beacon until it ends or is lifted")
    func suppression() throws {
        var engine = try F.engine([try Self.reminding()])
        _ = try engine.fire(F.firing("exit", at: F.t0), now: F.t0)
        _ = try engine.handle(
            .answer(.dismissed, instance: Self.instance(F.t0), by: "desk via cli", suppress: .for(.seconds(3600))),
            now: F.t0 + .seconds(5))
        #expect(engine.engine.suppressions(at: F.t0 + .seconds(5)).map(\.until) == [F.t0 + .seconds(3605)])
        #expect(try engine.fire(F.firing("exit", at: F.t0 + .seconds(60)), now: F.t0 + .seconds(60)).isEmpty)
        #expect(!(try engine.fire(F.firing("exit", F.beaconB, at: F.t0 + .seconds(60)), now: F.t0 + .seconds(60)).isEmpty))
        let (_, lifted) = try engine.handle(
            .liftSuppression(AlertKey(alertID: "exit", beacon: F.beaconA)), now: F.t0 + .seconds(70))
        #expect(lifted == .lifted(true))
        #expect(
            try engine.fire(F.firing("exit", at: F.t0 + .seconds(80)), now: F.t0 + .seconds(80)).map(\.event.kind) == [
                .created, .delivered,
            ])
        let (_, nothing) = try engine.handle(
            .liftSuppression(AlertKey(alertID: "exit", beacon: F.beaconA)), now: F.t0 + .seconds(90))
        #expect(nothing == .lifted(false))
    }

    @Test("remind and repeat together, escalation beyond the last reminder, max 0: refused with what to change")
    func policyErrors() throws {
        #expect(throws: AlertPolicyError.remindAndRepeat) {
            try AlertPolicy(repeat: .hourly, remind: try ReminderPolicy(every: .seconds(60)))
        }
        #expect(throws: AlertPolicyError.escalationAfterLastReminder(after: 6, max: 5)) {
            try ReminderPolicy(every: .seconds(60), max: 5, escalation: try EscalationPolicy(after: 6, to: ["p"]))
        }
        #expect(throws: AlertPolicyError.invalidCount(option: "remind.max", value: 0, minimum: 1)) {
            try ReminderPolicy(every: .seconds(60), max: 0)
        }
    }
}
