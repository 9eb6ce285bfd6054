import BeaconAlertEngine
import BeaconCore
import Testing

/// `priority` (issue 39, item 2: Critical Moments' interruption levels), on a manual clock:
/// what each level passes, what its events say, and the count of unanswered alerts by level.
@Suite("Alert engine: priority")
struct AlertEnginePriorityTests {
    typealias F = EngineFixture

    /// Weekdays 08:00–18:00 in Paris, deferring outside.
    static func officeHours() throws -> DeliveryWindow {
        try DeliveryWindow(
            days: ["mon", "tue", "wed", "thu", "fri"], from: "08:00", to: "18:00", timeZone: "Europe/Paris",
            outsideWindow: "defer")
    }

    static func rule(
        _ id: String, _ priority: AlertPriority, window: DeliveryWindow? = nil, cooldown: Duration? = nil,
        remind: ReminderPolicy? = nil
    ) throws -> AlertRule {
        AlertRule(id: id, policy: try AlertPolicy(cooldown: cooldown, window: window, remind: remind, priority: priority))
    }

    static let saturday = F.at("2025-01-11T10:00:00Z")

    @Test("outside its window an active alert waits for Monday; a time-sensitive or critical one is delivered now and says why")
    func windowPassedFromTimeSensitive() throws {
        for priority in AlertPriority.allCases {
            var engine = try F.engine([try Self.rule("door", priority, window: try Self.officeHours())])
            let events = try engine.fire(F.firing("door", at: Self.saturday), now: Self.saturday)
            if priority.passesDeliveryWindow {
                #expect(
                    events.map(\.summary) == [
                        "created door due 2025-01-11T10:00:00.000Z", "delivered door due 2025-01-11T10:00:00.000Z",
                    ])
                let delivered = try #require(events.last)
                #expect(
                    delivered.joinedMessages
                        == "\(priority): passed the delivery window (mon, tue, wed, thu, fri 08:00–18:00 Europe/Paris), closed at 2025-01-11T10:00:00.000Z"
                )
            } else {
                #expect(events.map(\.summary) == ["created door due 2025-01-13T07:00:00.000Z"], "\(priority)")
            }
            #expect(events.allSatisfy { $0.event.priority == priority })
        }
    }

    @Test("a critical alert fires through its cooldown and a suppression, naming both; a time-sensitive one does not")
    func cooldownAndSuppressionPassedByCritical() throws {
        for priority in [AlertPriority.timeSensitive, .critical] {
            var engine = try F.engine([try Self.rule("fall", priority, cooldown: .seconds(3600))])
            _ = try engine.fire(F.firing("fall", at: F.t0), now: F.t0)
            _ = try engine.handle(
                .answer(
                    .dismissed, instance: AlertInstance(key: AlertKey(alertID: "fall", beacon: F.beaconA), due: F.t0),
                    by: "night-nurse via http", suppress: .forever),
                now: F.t0 + .seconds(60))
            let again = F.t0 + .seconds(600)
            let events = try engine.fire(F.firing("fall", at: again), now: again)
            if priority == .critical {
                #expect(events.map(\.event.kind) == [.created, .delivered])
                #expect(
                    events[1].event.messages == [
                        "critical: passed the cooldown (delivered at 2025-01-06T09:00:00.000Z, cooling down until 2025-01-06T10:00:00.000Z)",
                        "critical: passed the suppression (dismissed and suppressed for this beacon for good)",
                    ])
                #expect(events[0].event.messages == events[1].event.messages, "the created event says it too")
            } else {
                #expect(events.isEmpty, "a time-sensitive alert keeps its cooldown and suppression")
            }
        }
    }

    @Test("a time-sensitive alert's reminders pass the window too; an active one's wait for it")
    func remindersPassTheWindow() throws {
        let friday = F.at("2025-01-10T16:58:00Z") // 17:58 in Paris: the window closes at 18:00
        for priority in [AlertPriority.active, .timeSensitive] {
            var engine = try F.engine([
                try Self.rule(
                    "exit", priority, window: try Self.officeHours(), remind: try ReminderPolicy(every: .seconds(300), max: 2))
            ])
            _ = try engine.fire(F.firing("exit", at: friday), now: friday)
            let reminders = try engine.run(until: F.at("2025-01-13T09:00:00Z")).filter { $0.event.attempt > 0 }
            let times = reminders.map(\.event.time.rfc3339String)
            if priority == .active {
                #expect(times == ["2025-01-13T07:00:00.000Z", "2025-01-13T07:05:00.000Z"])
            } else {
                #expect(times == ["2025-01-10T17:03:00.000Z", "2025-01-10T17:08:00.000Z"])
                #expect(reminders[0].joinedMessages.contains("time-sensitive: passed the delivery window"))
            }
        }
    }

    @Test("a passive alert cannot remind: refused with what to change")
    func passiveNeverReminds() throws {
        #expect(throws: AlertPolicyError.passiveReminds) {
            try AlertPolicy(remind: try ReminderPolicy(every: .seconds(60)), priority: .passive)
        }
        #expect(AlertPolicyError.passiveReminds.description.contains("remove 'remind'"))
        #expect(
            throws: AlertPolicyError.unknownValue(
                option: "priority", value: "urgent", accepted: ["passive", "active", "time-sensitive", "critical"])
        ) {
            try AlertPriority(parsing: "urgent")
        }
    }

    @Test("every event of an alert carries its level, and its JSON line says it")
    func levelOnEveryEvent() throws {
        var engine = try F.engine([
            AlertRule(
                id: "fall",
                policy: try AlertPolicy(
                    delay: .seconds(60), priority: .critical))
        ])
        var events = try engine.fire(F.firing("fall", at: F.t0), now: F.t0)
        events += try engine.run(until: F.t0 + .seconds(120))
        #expect(events.map(\.event.kind) == [.created, .delivered])
        #expect(events.allSatisfy { $0.event.priority == .critical })
        #expect(events.allSatisfy { $0.event.jsonLine.contains(#""strategy":"time","priority":"critical","time""#) })
        var plain = try F.engine([AlertRule(id: "hello")])
        let hello = try plain.fire(F.firing("hello", at: F.t0), now: F.t0)
        #expect(hello.allSatisfy { $0.event.jsonLine.contains(#""priority":"active""#) })
    }

    @Test("the unanswered instances are counted by their alert's level; an answer takes one off")
    func unansweredByLevel() throws {
        var engine = try F.engine([
            try Self.rule("fall", .critical), try Self.rule("door", .timeSensitive), try Self.rule("hello", .passive),
        ])
        #expect(UnansweredAlerts(engine.engine).total == 0)
        _ = try engine.fire(F.firing("fall", F.beaconA, at: F.t0), now: F.t0)
        _ = try engine.fire(F.firing("fall", F.beaconB, at: F.t0), now: F.t0)
        _ = try engine.fire(F.firing("door", F.beaconA, at: F.t0), now: F.t0)
        _ = try engine.fire(F.firing("hello", F.beaconC, at: F.t0), now: F.t0)
        var counts = UnansweredAlerts(engine.engine)
        #expect(counts[.critical] == 2 && counts[.timeSensitive] == 1 && counts[.passive] == 1 && counts[.active] == 0)
        #expect(counts.total == 4)
        _ = try engine.handle(
            .answer(
                .acknowledged, instance: AlertInstance(key: AlertKey(alertID: "fall", beacon: F.beaconB), due: F.t0), by: "a"),
            now: F.t0 + .seconds(5))
        counts = UnansweredAlerts(engine.engine)
        #expect(counts[.critical] == 1 && counts.total == 3)
    }
}
