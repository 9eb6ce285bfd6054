import BeaconAlertEngine
import BeaconCore
import Testing

/// The engine writes each step to its store before emitting; a new engine on the same store
/// continues without repeating a delivery or losing a scheduled alert.
@Suite("Alert engine: durable state and restart")
struct AlertEnginePersistenceTests {
    typealias F = EngineFixture

    static let rules: [AlertRule] = [
        AlertRule(id: "welcome", policy: try! AlertPolicy(delay: .seconds(600), firing: .oncePerBeacon)),
        AlertRule(
            id: "hourly",
            policy: try! AlertPolicy(
                delay: .seconds(300), repeat: .hourly,
                cancelOn: [.event("closing")])),
        AlertRule(id: "again", policy: try! AlertPolicy(firing: .everyActivation, cooldown: .seconds(1800))),
    ]

    enum Step: Sendable {
        case fire(String, BeaconID, Timestamp)
        case fact(EngineFact, Timestamp)
        case advance(Timestamp)
    }

    /// A scripted day: firings, deliveries, a repeat, a cooldown, a cancellation.
    static let script: [Step] = [
        .fire("welcome", F.beaconA, F.at("2025-01-06T09:00:00Z")),
        .fire("hourly", F.beaconB, F.at("2025-01-06T09:00:00Z")),
        .fire("again", F.beaconA, F.at("2025-01-06T09:01:00Z")),
        .advance(F.at("2025-01-06T09:05:00Z")),
        .fire("again", F.beaconA, F.at("2025-01-06T09:06:00Z")), // in cooldown: ignored
        .advance(F.at("2025-01-06T09:10:00Z")),
        .fire("welcome", F.beaconA, F.at("2025-01-06T09:20:00Z")), // once-per-beacon: ignored
        .advance(F.at("2025-01-06T10:05:00Z")),
        .fire("again", F.beaconA, F.at("2025-01-06T10:06:00Z")),
        .advance(F.at("2025-01-06T11:05:00Z")),
        .fact(.external(name: "closing", beacon: nil), F.at("2025-01-06T11:30:00Z")),
        .advance(F.at("2025-01-06T13:00:00Z")),
    ]

    static let expectedLog = [
        "created welcome due 2025-01-06T09:10:00.000Z",
        "created hourly due 2025-01-06T09:05:00.000Z",
        "created again due 2025-01-06T09:01:00.000Z", "delivered again due 2025-01-06T09:01:00.000Z",
        "delivered hourly due 2025-01-06T09:05:00.000Z", "created hourly due 2025-01-06T10:05:00.000Z",
        "delivered welcome due 2025-01-06T09:10:00.000Z",
        "delivered hourly due 2025-01-06T10:05:00.000Z", "created hourly due 2025-01-06T11:05:00.000Z",
        "created again due 2025-01-06T10:06:00.000Z", "delivered again due 2025-01-06T10:06:00.000Z",
        "delivered hourly due 2025-01-06T11:05:00.000Z", "created hourly due 2025-01-06T12:05:00.000Z",
        "cancelled hourly due 2025-01-06T12:05:00.000Z",
    ]

    static func run(_ step: Step, on engine: inout StoredAlertEngine) throws -> [RoutedEvent] {
        switch step {
        case .fire(let alertID, let beacon, let time): try engine.fire(F.firing(alertID, beacon, at: time), now: time)
        case .fact(let fact, let time): try engine.handle(fact, now: time)
        case .advance(let time): try engine.advance(to: time)
        }
    }

    @Test("the scripted run without a restart gives the expected log")
    func uninterrupted() throws {
        var engine = try F.engine(Self.rules)
        var log: [String] = []
        for step in Self.script { log += try Self.run(step, on: &engine).map(\.summary) }
        #expect(log == Self.expectedLog)
    }

    @Test("a restart between any two steps neither repeats nor loses an event", arguments: 1..<script.count)
    func restartBetweenSteps(_ restartAfter: Int) throws {
        let store = InMemoryAlertStateStore()
        let configuration = try AlertEngineConfiguration(rules: Self.rules)
        var engine = try StoredAlertEngine(configuration: configuration, store: store)
        var log: [String] = []
        for (index, step) in Self.script.enumerated() {
            if index == restartAfter {
                engine = try StoredAlertEngine(configuration: configuration, store: store) // the old instance is gone
            }
            log += try Self.run(step, on: &engine).map(\.summary)
        }
        #expect(log == Self.expectedLog)
    }

    @Test("an engine down past a due time delivers it once on restart, late, and renews the series")
    func deliveredWhileDown() throws {
        let store = InMemoryAlertStateStore()
        var first = try F.engine(Self.rules, store: store)
        _ = try first.fire(F.firing("hourly", at: F.t0), now: F.t0) // due 09:05
        var second = try F.engine(Self.rules, store: store)
        #expect(second.nextDeadline == F.at("2025-01-06T09:05:00Z"))
        let events = try second.advance(to: F.at("2025-01-06T09:35:00Z"))
        #expect(
            events.map(\.summary) == [
                "delivered hourly due 2025-01-06T09:05:00.000Z",
                "created hourly due 2025-01-06T10:05:00.000Z",
            ])
        #expect(events[0].joinedMessages == "delivered 30m late (due 2025-01-06T09:05:00.000Z)")
        var third = try F.engine(Self.rules, store: store)
        #expect(try third.advance(to: F.at("2025-01-06T09:35:00Z")).isEmpty) // not delivered again
    }

    @Test("with maxLateness, an alert found too late after a restart is dropped with a message")
    func tooLate() throws {
        let rule = AlertRule(id: "a", policy: try AlertPolicy(delay: .seconds(600), maxLateness: .seconds(1800)))
        let store = InMemoryAlertStateStore()
        var first = try F.engine([rule], store: store)
        _ = try first.fire(F.firing("a", at: F.t0), now: F.t0)
        var second = try F.engine([rule], store: store)
        let events = try second.advance(to: F.at("2025-01-06T11:10:00Z"))
        #expect(events.map(\.summary) == ["cancelled a due 2025-01-06T09:10:00.000Z"])
        #expect(events[0].joinedMessages == "dropped: due 2025-01-06T09:10:00.000Z, 2h ago, more than maxLateness (30m)")
    }

    @Test(
        "an alert that fell due while down and whose window has closed is deferred or dropped",
        arguments: [
            (
                "defer", ["created a due 2025-01-07T07:00:00.000Z"],
                "deferred from 2025-01-06T16:55:00.000Z to 2025-01-07T07:00:00.000Z: the delivery window (every day 08:00–18:00 Europe/Paris) was closed when it was handled"
            ),
            (
                "drop", ["cancelled a due 2025-01-06T16:55:00.000Z"],
                "dropped: due 2025-01-06T16:55:00.000Z, the delivery window (every day 08:00–18:00 Europe/Paris) was closed when it was handled"
            ),
        ])
    func lateIntoClosedWindow(_ outside: String, _ expected: [String], _ message: String) throws {
        let window = try DeliveryWindow(from: "08:00", to: "18:00", timeZone: "Europe/Paris", outsideWindow: outside)
        let rule = AlertRule(id: "a", policy: try AlertPolicy(delay: .seconds(600), window: window))
        let store = InMemoryAlertStateStore()
        var first = try F.engine([rule], store: store)
        let fired = F.at("2025-01-06T16:45:00Z") // 17:45 CET, due 17:55 CET
        _ = try first.fire(F.firing("a", at: fired), now: fired)
        var second = try F.engine([rule], store: store)
        let events = try second.advance(to: F.at("2025-01-06T18:00:00Z")) // 19:00 CET
        #expect(events.map(\.summary) == expected)
        #expect(events.first?.joinedMessages == message)
    }

    @Test("a pending alert whose definition was removed is cancelled on restart")
    func removedDefinition() throws {
        let store = InMemoryAlertStateStore()
        var first = try F.engine(Self.rules, store: store)
        _ = try first.fire(F.firing("welcome", at: F.t0), now: F.t0)
        var second = try F.engine([], store: store)
        let events = try second.advance(to: F.t0 + .seconds(1))
        #expect(events.map(\.summary) == ["cancelled welcome due 2025-01-06T09:10:00.000Z"])
        #expect(events.first?.joinedMessages == "cancelled: alert 'welcome' is no longer configured")
        #expect(second.nextDeadline == nil)
    }

    @Test("when the store fails, the step emits nothing and changes nothing; a retry succeeds")
    func storeFailure() throws {
        let store = InMemoryAlertStateStore()
        var engine = try F.engine(Self.rules, store: store)
        store.failNextApply()
        #expect(throws: AlertEngineError.storeFailed("injected store failure")) {
            try engine.fire(F.firing("welcome", at: F.t0), now: F.t0)
        }
        #expect(engine.nextDeadline == nil)
        #expect(store.state == AlertEngineState())
        #expect(
            try engine.fire(F.firing("welcome", at: F.t0), now: F.t0).map(\.summary)
                == ["created welcome due 2025-01-06T09:10:00.000Z"])
        #expect(store.state.pending.count == 1)
    }

    @Test("a refused delivery step is rolled back whole: history, renewal and removal")
    func storeFailureDuringDelivery() throws {
        let store = InMemoryAlertStateStore()
        var engine = try F.engine(Self.rules, store: store)
        _ = try engine.fire(F.firing("hourly", at: F.t0), now: F.t0)
        let before = engine.state
        store.failNextApply()
        #expect(throws: AlertEngineError.self) { try engine.advance(to: F.at("2025-01-06T09:05:00Z")) }
        #expect(engine.state == before)
        #expect(store.state == before)
        #expect(
            try engine.advance(to: F.at("2025-01-06T09:05:00Z")).map(\.summary)
                == ["delivered hourly due 2025-01-06T09:05:00.000Z", "created hourly due 2025-01-06T10:05:00.000Z"])
    }

    @Test("every emitting step is stored as one batch before its events are returned")
    func writeThrough() throws {
        let store = InMemoryAlertStateStore()
        var engine = try F.engine(Self.rules, store: store)
        _ = try engine.fire(F.firing("hourly", at: F.t0), now: F.t0)
        #expect(store.batchCount == 1)
        #expect(store.state == engine.state)
        _ = try engine.advance(to: F.at("2025-01-06T09:05:00Z"))
        #expect(store.batchCount == 2)
        #expect(store.state == engine.state)
        #expect(
            store.state.history[AlertKey(alertID: "hourly", beacon: F.beaconA)]?.lastDeliveredDue == F.at("2025-01-06T09:05:00Z"))
        _ = try engine.advance(to: F.at("2025-01-06T09:06:00Z")) // nothing due: nothing written
        #expect(store.batchCount == 2)
    }
}
