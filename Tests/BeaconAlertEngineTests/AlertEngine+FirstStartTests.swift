import BeaconAlertEngine
import BeaconCore
import Testing

/// `firstStart: quiet` in the engine (issue 39): the beacons marked as already in range at an
/// alert's first start are ignored until they have gone.
@Suite("Alert engine: a quiet first start")
struct AlertEngineFirstStartTests {
    typealias F = EngineFixture

    func engine() throws -> AlertEngine {
        let rule = AlertRule(id: "welcome", policy: try AlertPolicy(firstStart: .quiet))
        return AlertEngine(configuration: try AlertEngineConfiguration(rules: [rule]))
    }

    func kinds(_ output: AlertEngineOutput) -> [String] { output.events.map(\.event.kind.rawValue) }

    @Test("a beacon marked at the first start is ignored, with the obstacle named; an unmarked one alerts")
    func markedIgnored() throws {
        var engine = try engine()
        var output = AlertEngineOutput()
        engine.quietAtFirstStart([F.beaconA], alertID: "welcome", into: &output)
        #expect(output.changes.count == 1)
        #expect(engine.state.history[AlertKey(alertID: "welcome", beacon: F.beaconA)]?.quietUntilGone == true)

        let firingA = F.firing("welcome", F.beaconA, at: F.t0 + .seconds(5))
        #expect(engine.obstacle(to: firingA) == .quietAtFirstStart)
        #expect("\(FiringObstacle.quietAtFirstStart)".contains("firstStart: quiet"))
        #expect(kinds(try engine.fire(firingA, now: F.t0 + .seconds(5))).isEmpty)

        let firingB = F.firing("welcome", F.beaconB, at: F.t0 + .seconds(6))
        #expect(engine.obstacle(to: firingB) == nil)
        #expect(kinds(try engine.fire(firingB, now: F.t0 + .seconds(6))) == ["created", "delivered"])
    }

    @Test("the beacon's exit ends the quiet: its next firing alerts")
    func exitEndsQuiet() throws {
        var engine = try engine()
        var output = AlertEngineOutput()
        engine.quietAtFirstStart([F.beaconA, F.beaconB], alertID: "welcome", into: &output)
        let exit = engine.handle(.beaconExit(F.beaconA), now: F.t0 + .seconds(60))
        #expect(exit.events.isEmpty)
        #expect(exit.changes.count == 1)
        #expect(engine.state.history[AlertKey(alertID: "welcome", beacon: F.beaconA)]?.quietUntilGone == false)
        #expect(
            kinds(try engine.fire(F.firing("welcome", F.beaconA, at: F.t0 + .seconds(90)), now: F.t0 + .seconds(90)))
                == ["created", "delivered"])
        // B has not gone: still quiet.
        #expect(
            kinds(try engine.fire(F.firing("welcome", F.beaconB, at: F.t0 + .seconds(91)), now: F.t0 + .seconds(91)))
                .isEmpty)
    }

    @Test("a beacon the alert already has a history of is not marked")
    func historyKept() throws {
        var engine = try engine()
        _ = try engine.fire(F.firing("welcome", F.beaconA, at: F.t0), now: F.t0)
        var output = AlertEngineOutput()
        engine.quietAtFirstStart([F.beaconA], alertID: "welcome", into: &output)
        #expect(output.changes.isEmpty)
        #expect(engine.state.history[AlertKey(alertID: "welcome", beacon: F.beaconA)]?.quietUntilGone == false)
    }

    @Test("the mark is kept in the store: a restarted engine still ignores the beacon")
    func persisted() throws {
        let store = InMemoryAlertStateStore()
        let rule = AlertRule(id: "welcome", policy: try AlertPolicy(firstStart: .quiet))
        var first = AlertEngine(configuration: try AlertEngineConfiguration(rules: [rule]))
        var output = AlertEngineOutput()
        first.quietAtFirstStart([F.beaconA], alertID: "welcome", into: &output)
        try store.apply(output.changes, emitting: output.events)

        var restarted = try AlertEngine(configuration: try AlertEngineConfiguration(rules: [rule]), loadingFrom: store)
        #expect(restarted.obstacle(to: F.firing("welcome", F.beaconA, at: F.t0 + .seconds(30))) == .quietAtFirstStart)
        #expect(
            kinds(try restarted.fire(F.firing("welcome", F.beaconA, at: F.t0 + .seconds(30)), now: F.t0 + .seconds(30)))
                .isEmpty)
    }

    @Test("firstStart reads fire or quiet, and says what it accepts otherwise")
    func parsing() throws {
        #expect(try AlertPolicy().firstStart == .fire)
        #expect(
            try AlertPolicy(
                delay: nil, notBefore: nil, firing: nil, repeat: nil, cooldown: nil, window: nil, cancelOn: [],
                firstStart: "quiet"
            ).firstStart == .quiet)
        #expect(throws: AlertPolicyError.unknownValue(option: "firstStart", value: "loud", accepted: ["fire", "quiet"])) {
            try FirstStart(parsing: "loud")
        }
    }
}
