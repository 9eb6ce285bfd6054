import BeaconAlertEngine
import BeaconCore
import Testing

/// `cancelOn`: region exit, beacon exit, another alert's delivery, a named event.
@Suite("Alert engine: cancellation")
struct AlertEngineCancellationTests {
    typealias F = EngineFixture

    static func engine() throws -> StoredAlertEngine {
        let waiting = try AlertPolicy(
            delay: .seconds(600), repeat: .hourly,
            cancelOn: [
                .regionExit("lobby"), .beaconExit, .alertDelivered("vip"), .event("closing"),
            ])
        var engine = try F.engine([AlertRule(id: "reminder", policy: waiting), AlertRule(id: "vip")])
        _ = try engine.fire(F.firing("reminder", F.beaconA, at: F.t0), now: F.t0)
        return engine
    }

    /// What happens, and the expected events (`nil` message = nothing cancelled).
    enum Trigger: Sendable {
        case fact(EngineFact)
        case region(RegionEvent)
        case fire(String, BeaconID)
    }

    static let later = F.t0 + .seconds(60)

    @Test(
        "each cancelOn kind cancels the pending alert, with the reason",
        arguments: [
            (Trigger.fact(.regionExit(regionID: "lobby", beacon: F.beaconA)), "cancelled: the beacon left region 'lobby'"),
            (
                .region(RegionEvent(kind: .exit, regionID: "lobby", beacon: F.beaconA, time: later)),
                "cancelled: the beacon left region 'lobby'"
            ),
            (.fact(.beaconExit(F.beaconA)), "cancelled: the beacon went away"),
            (.fire("vip", F.beaconA), "cancelled: alert 'vip' was delivered for this beacon"),
            (.fact(.external(name: "closing", beacon: nil)), "cancelled: event 'closing' happened"),
            (.fact(.external(name: "closing", beacon: F.beaconA)), "cancelled: event 'closing' happened"),
        ])
    func cancels(_ trigger: Trigger, _ reason: String) throws {
        var engine = try Self.engine()
        let events = try Self.apply(trigger, to: &engine)
        let cancelled = try #require(events.first { $0.event.kind == .cancelled })
        #expect(cancelled.summary == "cancelled reminder due 2025-01-06T09:10:00.000Z")
        #expect(cancelled.event.beacon == F.beaconA)
        #expect(cancelled.joinedMessages == reason)
        #expect(engine.nextDeadline == nil) // the repeating series ends
        #expect(try engine.run(until: F.t0 + .seconds(86_400)).isEmpty)
    }

    @Test(
        "facts about something else cancel nothing",
        arguments: [
            Trigger.fact(.regionExit(regionID: "terrace", beacon: F.beaconA)),
            .fact(.regionExit(regionID: "lobby", beacon: F.beaconB)),
            .region(RegionEvent(kind: .enter, regionID: "lobby", beacon: F.beaconA, time: later)),
            .fact(.beaconExit(F.beaconB)),
            .fire("vip", F.beaconB),
            .fact(.external(name: "opening", beacon: nil)),
            .fact(.external(name: "closing", beacon: F.beaconB)),
        ])
    func ignores(_ trigger: Trigger) throws {
        var engine = try Self.engine()
        let events = try Self.apply(trigger, to: &engine)
        #expect(!events.contains { $0.event.kind == .cancelled })
        #expect(engine.nextDeadline == F.at("2025-01-06T09:10:00Z"))
    }

    static func apply(_ trigger: Trigger, to engine: inout StoredAlertEngine) throws -> [RoutedEvent] {
        switch trigger {
        case .fact(let fact): try engine.handle(fact, now: later)
        case .region(let event): try engine.handle(event, now: later)
        case .fire(let alertID, let beacon): try engine.fire(F.firing(alertID, beacon, at: later), now: later)
        }
    }

    @Test("a delivery by advance cancels alerts waiting on it, even due in the same step")
    func deliveryInSameStep() throws {
        let waiting = try AlertPolicy(delay: .seconds(600), cancelOn: [.alertDelivered("first")])
        var engine = try F.engine([
            AlertRule(id: "first", policy: try AlertPolicy(delay: .seconds(300))),
            AlertRule(id: "second", policy: waiting),
        ])
        _ = try engine.fire(F.firing("second", at: F.t0), now: F.t0)
        _ = try engine.fire(F.firing("first", at: F.t0 + .seconds(300)), now: F.t0 + .seconds(300))
        // Both are due at 09:10; "first" sorts first, its delivery cancels "second".
        let events = try engine.advance(to: F.at("2025-01-06T09:10:00Z"))
        #expect(
            events.map(\.summary) == [
                "delivered first due 2025-01-06T09:10:00.000Z",
                "cancelled second due 2025-01-06T09:10:00.000Z",
            ])
    }
}
