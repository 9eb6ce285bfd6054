import BeaconAlertEngine
import BeaconCore
import Testing

/// `scheduleCondition` and `deliverWhen` (issue 29) on a manual clock, against a world written
/// by hand: which beacons are in range, in which room, how far; which events were posted.
@Suite("Alert engine: schedule and delivery conditions")
struct AlertEngineConditionTests {
    typealias F = EngineFixture

    /// A world the test sets up: each beacon's room and distance (absent: out of range).
    struct World: AlertWorld {
        var rooms: [BeaconID: String] = [:]
        var distances: [BeaconID: Double] = [:]
        var posted: [String: Timestamp] = [:]

        func beacon(_ id: BeaconID) -> RangedBeacon? {
            guard rooms[id] != nil || distances[id] != nil else { return nil }
            return RangedBeacon(
                id: id, lastAddress: BluetoothAddress(rawValue: 1), seenThisCycle: true, sampleCount: 1, lastRSSI: -60,
                meanRSSI: -60, filteredRSSI: -60, measuredPower: nil, distance: distances[id], accuracy: nil,
                proximity: (distances[id] ?? 9) < 3 ? .near : .far, firstSeen: F.t0, lastSeen: F.t0, room: rooms[id])
        }
        func regions(of id: BeaconID) -> Set<String> { [] }
        func occupancy(ofRoom room: String) -> Int { rooms.values.filter { $0 == room }.count }
        func lastPosted(_ event: String, for beacon: BeaconID) -> Timestamp? { posted[event] }
    }

    static func rule(
        delay: Duration? = nil, schedule: AlertCondition? = nil, deliverWhen: DeliveryCondition? = nil
    ) throws -> AlertRule {
        AlertRule(id: "voucher", policy: try AlertPolicy(delay: delay, scheduleCondition: schedule, deliverWhen: deliverWhen))
    }

    @Test(
        "scheduleCondition: scheduled when it holds; otherwise not scheduled, recorded as a cancelled event with the reason",
        arguments: [
            (AlertCondition(room: "cafe"), "cafe", nil as String?),
            (AlertCondition(room: "cafe"), "shop", "the beacon is in room shop, not cafe"),
            (AlertCondition(inRange: true, maxDistance: 2), "cafe", "the beacon's distance is 4.0 m, more than 2.0 m"),
            (AlertCondition(occupancy: .init(room: "cafe", atMost: 0)), "cafe", "room cafe holds 1, more than 0"),
            (
                AlertCondition(event: .init(name: "open", within: .seconds(60))), "cafe",
                "event open was not posted in the last 1m"
            ),
        ])
    func scheduleCondition(_ condition: AlertCondition, _ room: String, _ failure: String?) throws {
        var engine = try F.engine([try Self.rule(schedule: condition)])
        let world = World(rooms: [F.beaconA: room], distances: [F.beaconA: 4.0])
        let events = try engine.fire(F.firing("voucher", at: F.t0), now: F.t0, world: world)
        if let failure {
            #expect(events.map(\.event.kind) == [.cancelled])
            #expect(
                events.first?.joinedMessages == "not scheduled: the schedule condition (\(condition)) does not hold: \(failure)")
        } else {
            #expect(events.map(\.event.kind) == [.created, .delivered])
        }
    }

    @Test("deliverWhen: a due alert is held while the condition fails and delivered the cycle it holds")
    func heldThenDelivered() throws {
        let when = try DeliveryCondition(condition: AlertCondition(room: "cafe"), maxWait: .seconds(300), then: .drop)
        var engine = try F.engine([try Self.rule(delay: .seconds(30), deliverWhen: when)])
        var world = World(rooms: [F.beaconA: "shop"])
        _ = try engine.fire(F.firing("voucher", at: F.t0), now: F.t0, world: world)
        let held = try engine.advance(to: F.t0 + .seconds(30), world: world)
        #expect(held.map(\.event.kind) == [.created])
        #expect(held[0].event.scheduledFor == F.t0 + .seconds(330), "scheduled for the end of the wait")
        #expect(held[0].joinedMessages.hasPrefix("held: delivered once room cafe holds (the beacon is in room shop, not cafe)"))
        #expect(engine.nextDeadline == F.t0 + .seconds(330), "the engine next looks at it when the wait ends")
        #expect(try engine.advance(to: F.t0 + .seconds(60), world: world).isEmpty, "still held, said once")
        world.rooms[F.beaconA] = "cafe"
        let delivered = try engine.advance(to: F.t0 + .seconds(61), world: world)
        #expect(delivered.map(\.event.kind) == [.delivered])
        #expect(delivered[0].event.scheduledFor == F.t0 + .seconds(30), "the original due time: its instance")
        #expect(engine.pending.isEmpty)
    }

    @Test(
        "deliverWhen: when the wait ends, `then: drop` cancels and `then: deliver` delivers with the reason",
        arguments: [DeliveryCondition.Expiry.drop, .deliver])
    func waitEnds(_ then: DeliveryCondition.Expiry) throws {
        let when = try DeliveryCondition(condition: AlertCondition(inRange: true), maxWait: .seconds(60), then: then)
        var engine = try F.engine([try Self.rule(delay: .seconds(30), deliverWhen: when)])
        let gone = World()
        _ = try engine.fire(F.firing("voucher", at: F.t0), now: F.t0, world: World(rooms: [F.beaconA: "cafe"]))
        _ = try engine.advance(to: F.t0 + .seconds(30), world: gone)
        let end = try engine.run(until: F.t0 + .seconds(600))
        #expect(end.map(\.event.time) == [F.t0 + .seconds(90)], "at the end of the wait, not later")
        switch then {
        case .drop:
            #expect(end.map(\.event.kind) == [.cancelled])
            #expect(
                end[0].joinedMessages
                    == "dropped: the delivery condition (in range) did not hold within 1m: the beacon is out of range")
        case .deliver:
            #expect(end.map(\.event.kind) == [.delivered])
            #expect(
                end[0].joinedMessages.contains(
                    "the delivery condition (in range) never held within 1m: the beacon is out of range"))
        }
        #expect(engine.pending.isEmpty)
    }

    @Test("a condition part for part: proximity bands, an empty world, the time of day")
    func parts() throws {
        let near = AlertCondition(proximity: .near)
        let world = World(distances: [F.beaconA: 1.0, F.beaconB: 8.0])
        #expect(near.failure(for: F.beaconA, now: F.t0, in: world) == nil)
        #expect(near.failure(for: F.beaconB, now: F.t0, in: world) == "the beacon is far, not near or closer")
        #expect(near.failure(for: F.beaconC, now: F.t0, in: world) == "the beacon is out of range, not near or closer")
        #expect(AlertCondition(inRange: false).failure(for: F.beaconC, now: F.t0, in: EmptyAlertWorld()) == nil)
        let office = try DeliveryWindow(days: ["mon"], from: "08:00", to: "10:00", timeZone: "UTC", outsideWindow: "defer")
        #expect(AlertCondition(time: office).failure(for: F.beaconA, now: F.t0, in: world) == nil, "Monday 09:00")
        #expect(AlertCondition(time: office).failure(for: F.beaconA, now: F.t0 + .seconds(7200), in: world) != nil)
    }
}
