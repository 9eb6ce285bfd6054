import BeaconAlertEngine
import BeaconCore
import Testing

/// Per-kind callbacks with `callback` as the fallback; a kind left without one is an error.
@Suite("Callback destinations")
struct CallbackDestinationsTests {
    typealias F = EngineFixture

    static let all = "http://127.0.0.1:9000/all"
    static let one = "http://127.0.0.1:9000/one"

    @Test(
        "the specific destination wins, else the fallback",
        arguments: [
            (AlertEvent.Kind.created, [String?](arrayLiteral: all, one, nil, nil, nil), String?(one)),
            (.delivered, [all, one, nil, nil, nil], all),
            (.delivered, [all, nil, one, nil, nil], one),
            (.cancelled, [all, nil, nil, one, nil], one),
            (.error, [all, nil, nil, nil, one], one),
            (.error, [all, nil, nil, nil, nil], all),
            (.error, [nil, one, one, one, all], all),
            (.created, [nil, nil, nil, nil, nil], nil),
        ])
    func resolution(_ kind: AlertEvent.Kind, _ given: [String?], _ expected: String?) throws {
        let destinations = try CallbackDestinations(
            callback: given[0], created: given[1], delivered: given[2],
            cancelled: given[3], error: given[4])
        #expect(destinations.destination(for: kind) == expected)
    }

    @Test(
        "a kind left without a destination is a configuration error",
        arguments: [
            ([String?](arrayLiteral: nil, one, nil, nil, nil), [AlertEvent.Kind.delivered, .cancelled, .error]),
            ([nil, one, one, one, nil], [.error]),
            ([nil, nil, one, nil, nil], [.created, .cancelled, .error]),
        ])
    func missing(_ given: [String?], _ missing: [AlertEvent.Kind]) {
        #expect(throws: AlertPolicyError.missingCallbacks(missing)) {
            try CallbackDestinations(
                callback: given[0], created: given[1], delivered: given[2], cancelled: given[3], error: given[4])
        }
    }

    @Test("the missing-destination error is reported by the policy built from plain values")
    func missingFromPlainValues() {
        #expect(throws: AlertPolicyError.missingCallbacks([.created, .cancelled, .error])) {
            try AlertPolicy(
                delay: nil, notBefore: nil, firing: nil, repeat: nil, cooldown: nil, window: nil, cancelOn: [],
                callbackDelivered: Self.one)
        }
    }

    @Test("the engine attaches each event's destination")
    func engineRoutes() throws {
        let callbacks = try CallbackDestinations(callback: Self.all, delivered: Self.one)
        var engine = try F.engine([AlertRule(id: "a", policy: try AlertPolicy(delay: .seconds(60), callbacks: callbacks))])
        var events = try engine.fire(F.firing("a", at: F.t0), now: F.t0)
        events += try engine.advance(to: F.t0 + .seconds(60))
        #expect(events.map(\.event.kind) == [.created, .delivered])
        #expect(events.map(\.destination) == [Self.all, Self.one])
    }
}
