import BeaconAlertEngine
import BeaconCore
import Testing

/// Retention (`retention.history`): histories idle since before a cutoff are forgotten, unless
/// something still rests on them; a forgotten beacon is new to the alert again.
@Suite("Alert engine: history retention")
struct AlertEngineRetentionTests {
    typealias F = EngineFixture
    static let day = Duration.seconds(86_400)

    static func engine(_ policy: AlertPolicy, id: String = "a") throws -> AlertEngine {
        AlertEngine(configuration: try AlertEngineConfiguration(rules: [AlertRule(id: id, policy: policy)]))
    }

    /// Fires `alertID` for `beacon` at `time` (delivered at once), discarding the output.
    static func deliver(_ engine: inout AlertEngine, _ beacon: BeaconID = F.beaconA, at time: Timestamp, id: String = "a")
        throws
    {
        let output = try engine.fire(F.firing(id, beacon, at: time), now: time)
        #expect(output.events.contains { $0.event.kind == .delivered }, "the firing at \(time) was delivered")
    }

    @Test("a history idle since before the cutoff goes, with a removal the store applies; a newer one stays")
    func idleHistoryForgotten() throws {
        var engine = try Self.engine(try AlertPolicy(firing: .oncePerBeacon))
        try Self.deliver(&engine, F.beaconA, at: F.t0)
        try Self.deliver(&engine, F.beaconB, at: F.t0 + Self.day * 5)
        let now = F.t0 + Self.day * 31
        var output = AlertEngineOutput()
        let removed = engine.forgetHistories(idleSince: now - Self.day * 30, now: now, into: &output)
        #expect(removed == 1)
        #expect(output.changes == [.removeHistory(AlertKey(alertID: "a", beacon: F.beaconA))])
        #expect(engine.state.history.keys.map(\.beacon) == [F.beaconB])
        // The store's view, replayed from the changes, agrees.
        var stored = AlertEngineState()
        stored.history = [AlertKey(alertID: "a", beacon: F.beaconA): AlertHistory(key: AlertKey(alertID: "a", beacon: F.beaconA))]
        for change in output.changes { stored.apply(change) }
        #expect(stored.history.isEmpty)
    }

    @Test("once-per-beacon: a forgotten beacon is delivered again; one still remembered is not")
    func forgottenBeaconIsNewAgain() throws {
        var engine = try Self.engine(try AlertPolicy(firing: .oncePerBeacon))
        try Self.deliver(&engine, at: F.t0)
        let later = F.t0 + Self.day * 10
        #expect(try engine.fire(F.firing("a", at: later), now: later).events.isEmpty, "remembered: not again")
        var output = AlertEngineOutput()
        #expect(engine.forgetHistories(idleSince: later - Self.day * 7, now: later, into: &output) == 1)
        try Self.deliver(&engine, at: later + .seconds(1))
    }

    @Test("kept while the cooldown runs, even when its latest moment is before the cutoff")
    func cooldownKeepsHistory() throws {
        var engine = try Self.engine(try AlertPolicy(firing: .everyActivation, cooldown: Self.day * 3))
        try Self.deliver(&engine, at: F.t0)
        var output = AlertEngineOutput()
        let inCooldown = F.t0 + Self.day * 2
        #expect(engine.forgetHistories(idleSince: inCooldown - .seconds(3600), now: inCooldown, into: &output) == 0)
        let after = F.t0 + Self.day * 3
        #expect(engine.forgetHistories(idleSince: after - .seconds(3600), now: after, into: &output) == 1)
    }

    @Test("kept while a suppression is in force (for good: always); gone once a timed one ended before the cutoff")
    func suppressionKeepsHistory() throws {
        let rule = AlertRule(id: "exit", policy: try AlertPolicy(remind: try ReminderPolicy(every: .seconds(120), max: 2)))
        for (suppression, removedAfterAYear) in [(AlertSuppression.for(Self.day), 1), (.forever, 0)] {
            var engine = AlertEngine(configuration: try AlertEngineConfiguration(rules: [rule]))
            _ = try engine.fire(StrategyFiring(alertID: "exit", beacon: F.beaconA, strategy: "time", time: F.t0), now: F.t0)
            _ = try engine.answer(
                .dismissed, instance: AlertInstance(key: AlertKey(alertID: "exit", beacon: F.beaconA), due: F.t0),
                by: "desk", suppress: suppression, now: F.t0 + .seconds(10))
            var output = AlertEngineOutput()
            let during = F.t0 + .seconds(3600)
            #expect(engine.forgetHistories(idleSince: during, now: during, into: &output) == 0, "\(suppression)")
            let yearLater = F.t0 + Self.day * 365
            #expect(
                engine.forgetHistories(idleSince: yearLater - Self.day * 30, now: yearLater, into: &output) == removedAfterAYear,
                "\(suppression)")
        }
    }

    @Test("kept while a reminder is pending, though its delivery is older than the cutoff")
    func pendingKeepsHistory() throws {
        var engine = try Self.engine(try AlertPolicy(remind: try ReminderPolicy(every: Self.day * 20, max: 3)))
        try Self.deliver(&engine, at: F.t0)
        #expect(engine.pending.count == 1, "the first reminder waits")
        var output = AlertEngineOutput()
        let now = F.t0 + Self.day * 15
        #expect(engine.forgetHistories(idleSince: now - Self.day, now: now, into: &output) == 0)
        #expect(engine.state.history.count == 1)
    }

    @Test("firstStart: quiet keeps its latest history, so a restart does not take the alert for new; the others go")
    func quietAlertStaysStarted() throws {
        var engine = try Self.engine(try AlertPolicy(firstStart: .quiet))
        var output = AlertEngineOutput()
        engine.quietAtFirstStart([F.beaconA, F.beaconB], alertID: "a", into: &output)
        _ = engine.handle(.beaconExit(F.beaconA), now: F.t0)
        _ = engine.handle(.beaconExit(F.beaconB), now: F.t0)
        try Self.deliver(&engine, F.beaconC, at: F.t0 + .seconds(60))
        let later = F.t0 + Self.day * 200
        #expect(engine.forgetHistories(idleSince: later - Self.day * 90, now: later, into: &output) == 2)
        #expect(engine.state.history.keys.map(\.beacon) == [F.beaconC], "the latest stays: the alert has started")
    }
}
