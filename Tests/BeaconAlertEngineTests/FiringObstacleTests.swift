import BeaconAlertEngine
import BeaconCore
import Testing

/// `AlertEngine.obstacle(to:)` (issue 38): what explanations say of a firing the engine ignores
/// must be what the engine does — nothing scheduled exactly when it names an obstacle.
@Suite("Firing obstacles: the engine's firing rules, told")
struct FiringObstacleTests {
    typealias F = EngineFixture

    @Test(
        "over random firings, dismissals and times: obstacle(to:) is nil exactly when the firing schedules something",
        arguments: [FiringMode.everyActivation, .oncePerBeacon, .first])
    func agreesWithFire(mode: FiringMode) throws {
        let rule = AlertRule(id: "a", policy: try AlertPolicy(firing: mode, cooldown: .seconds(300)))
        var engine = AlertEngine(configuration: try AlertEngineConfiguration(rules: [rule], maxPending: 64))
        var random = SplitMix64(seed: 38)
        var now = F.t0
        var ignored = 0
        var scheduled = 0
        for step in 0..<2_000 {
            now = now + .seconds(Int64.random(in: 1...240, using: &random))
            let beacon = BeaconID.iBeacon(
                uuidHigh: 0xE2C5_6DB5_DFFB_48D2, uuidLow: 0xB060_D0F5_A710_96E0, major: 1,
                minor: UInt16.random(in: 1...40, using: &random))
            _ = engine.advance(to: now)
            if step % 97 == 0, let due = engine.state.history[AlertKey(alertID: "a", beacon: beacon)]?.instanceDue {
                _ = try? engine.answer(
                    .dismissed, instance: AlertInstance(key: AlertKey(alertID: "a", beacon: beacon), due: due), by: "t",
                    suppress: .for(.seconds(600)), now: now)
            }
            let firing = F.firing("a", beacon, at: now)
            let obstacle = engine.obstacle(to: firing)
            let before = engine.state
            let output = try engine.fire(firing, now: now)
            let didSomething = output.events.contains { $0.event.kind == .created || $0.event.kind == .delivered }
            if let obstacle {
                ignored += 1
                #expect(!didSomething && engine.state == before, "step \(step): \(obstacle), yet the firing did \(output.events)")
            } else {
                scheduled += 1
                #expect(didSomething, "step \(step): no obstacle, yet nothing was scheduled")
            }
        }
        #expect(ignored > 100 && scheduled > 10, "both kinds happen: \(ignored) ignored, \(scheduled) scheduled")
    }

    @Test("each obstacle names its rule and what it remembers")
    func words() {
        let t = F.t0
        #expect(FiringObstacle.firstOnly(firstFiringAt: t).description.contains("firing is 'first'"))
        #expect(FiringObstacle.oncePerBeacon(deliveries: 2).description.contains("delivered 2 times already"))
        #expect(
            FiringObstacle.coolingDown(lastDelivered: t, until: t + .seconds(300)).description
                == "ignored: cooldown after the delivery at 2025-01-06T09:00:00.000Z, until 2025-01-06T09:05:00.000Z")
        #expect(FiringObstacle.suppressed(until: .distantFuture).description.hasSuffix("for good"))
    }
}
