import BeaconAlertEngine
import BeaconCore
import Testing

/// Scheduling once a strategy fires, which firings count, and the cooldown.
@Suite("Alert engine: scheduling and firing")
struct AlertEngineTests {
    typealias F = EngineFixture

    /// One step of a scripted run.
    enum Step: Sendable {
        case fire(Timestamp)
        case advance(Timestamp)
    }

    struct SchedulingCase: Sendable, CustomTestStringConvertible {
        let name: String
        let policy: AlertPolicy
        let expectedAtFiring: [String]
        let expectedDeadline: Timestamp?
        var testDescription: String { name }
    }

    static let schedulingCases: [SchedulingCase] = [
        SchedulingCase(
            name: "immediately", policy: .default,
            expectedAtFiring: ["created a due 2025-01-06T09:00:00.000Z", "delivered a due 2025-01-06T09:00:00.000Z"],
            expectedDeadline: nil),
        SchedulingCase(
            name: "delay 10m", policy: try! AlertPolicy(delay: .seconds(600)),
            expectedAtFiring: ["created a due 2025-01-06T09:10:00.000Z"],
            expectedDeadline: F.at("2025-01-06T09:10:00Z")),
        SchedulingCase(
            name: "notBefore in the future", policy: try! AlertPolicy(notBefore: F.at("2025-01-06T12:00:00Z")),
            expectedAtFiring: ["created a due 2025-01-06T12:00:00.000Z"],
            expectedDeadline: F.at("2025-01-06T12:00:00Z")),
        SchedulingCase(
            name: "notBefore already past", policy: try! AlertPolicy(notBefore: F.at("2025-01-06T08:00:00Z")),
            expectedAtFiring: ["created a due 2025-01-06T09:00:00.000Z", "delivered a due 2025-01-06T09:00:00.000Z"],
            expectedDeadline: nil),
    ]

    @Test("a firing is delivered now, after the delay, or not before the absolute time", arguments: schedulingCases)
    func scheduling(_ testCase: SchedulingCase) throws {
        var engine = try F.engine([AlertRule(id: "a", policy: testCase.policy)])
        let events = try engine.fire(F.firing("a", at: F.t0), now: F.t0)
        #expect(events.map(\.summary) == testCase.expectedAtFiring)
        #expect(engine.nextDeadline == testCase.expectedDeadline)
        if let deadline = testCase.expectedDeadline {
            #expect(try engine.advance(to: deadline - .seconds(1)).isEmpty)
            let delivered = try engine.advance(to: deadline)
            #expect(delivered.map(\.summary) == ["delivered a due \(deadline.rfc3339String)"])
            #expect(delivered.first?.event.time == deadline)
            #expect(engine.nextDeadline == nil)
        }
    }

    @Test("giving both delay and notBefore is a configuration error")
    func delayAndNotBefore() {
        #expect(throws: AlertPolicyError.delayAndNotBefore) {
            try AlertPolicy(delay: .seconds(60), notBefore: F.t0)
        }
        #expect(throws: AlertPolicyError.delayAndNotBefore) {
            try AlertPolicy(
                delay: "1m", notBefore: "2025-01-06T09:00:00Z", firing: nil, repeat: nil, cooldown: nil,
                window: nil, cancelOn: [])
        }
    }

    struct FiringCase: Sendable, CustomTestStringConvertible {
        let mode: FiringMode
        let expected: [[String]]
        var testDescription: String { mode.rawValue }
    }

    /// fire 09:00 (delay 10m), fire again 09:05 while pending, deliver at 09:15, fire 09:20 after delivery.
    static let script: [Step] = [
        .fire(F.at("2025-01-06T09:00:00Z")), .fire(F.at("2025-01-06T09:05:00Z")),
        .advance(F.at("2025-01-06T09:15:00Z")), .fire(F.at("2025-01-06T09:20:00Z")),
        .advance(F.at("2025-01-06T09:30:00Z")),
    ]

    static let firingCases: [FiringCase] = [
        FiringCase(
            mode: .oncePerBeacon,
            expected: [
                ["created a due 2025-01-06T09:10:00.000Z"],
                ["cancelled a due 2025-01-06T09:10:00.000Z", "created a due 2025-01-06T09:15:00.000Z"],
                ["delivered a due 2025-01-06T09:15:00.000Z"],
                [],
                [],
            ]),
        FiringCase(
            mode: .everyActivation,
            expected: [
                ["created a due 2025-01-06T09:10:00.000Z"],
                ["cancelled a due 2025-01-06T09:10:00.000Z", "created a due 2025-01-06T09:15:00.000Z"],
                ["delivered a due 2025-01-06T09:15:00.000Z"],
                ["created a due 2025-01-06T09:30:00.000Z"],
                ["delivered a due 2025-01-06T09:30:00.000Z"],
            ]),
        FiringCase(
            mode: .first,
            expected: [
                ["created a due 2025-01-06T09:10:00.000Z"],
                [],
                ["delivered a due 2025-01-06T09:10:00.000Z"],
                [],
                [],
            ]),
    ]

    @Test("which firing counts per alert and beacon", arguments: firingCases)
    func firingModes(_ testCase: FiringCase) throws {
        var engine = try F.engine([AlertRule(id: "a", policy: try AlertPolicy(delay: .seconds(600), firing: testCase.mode))])
        var actual: [[String]] = []
        for step in Self.script {
            switch step {
            case .fire(let time): actual.append(try engine.fire(F.firing("a", at: time), now: time).map(\.summary))
            case .advance(let time): actual.append(try engine.advance(to: time).map(\.summary))
            }
        }
        #expect(actual == testCase.expected)
    }

    @Test("a superseded alert's cancellation says why")
    func supersededMessage() throws {
        var engine = try F.engine([AlertRule(id: "a", policy: try AlertPolicy(delay: .seconds(600)))])
        _ = try engine.fire(F.firing("a", at: F.t0), now: F.t0)
        let later = F.t0 + .seconds(60)
        let events = try engine.fire(F.firing("a", at: later), now: later)
        #expect(events.first?.joinedMessages == "superseded by a later firing at 2025-01-06T09:01:00.000Z")
    }

    @Test("firing modes are per beacon: another beacon's firing does not replace a pending alert")
    func perBeacon() throws {
        var engine = try F.engine([AlertRule(id: "a", policy: try AlertPolicy(delay: .seconds(600), firing: .everyActivation))])
        _ = try engine.fire(F.firing("a", F.beaconA, at: F.t0), now: F.t0)
        let events = try engine.fire(F.firing("a", F.beaconB, at: F.t0 + .seconds(60)), now: F.t0 + .seconds(60))
        #expect(events.map(\.summary) == ["created a due 2025-01-06T09:11:00.000Z"])
        #expect(engine.pending.map(\.key.beacon) == [F.beaconA, F.beaconB])
    }

    @Test(
        "after a delivery, firings within the cooldown are ignored",
        arguments: [
            ("2025-01-06T09:30:00Z", false), ("2025-01-06T09:59:59Z", false), ("2025-01-06T10:00:00Z", true),
        ])
    func cooldown(_ second: String, _ delivered: Bool) throws {
        var engine = try F.engine([
            AlertRule(id: "a", policy: try AlertPolicy(firing: .everyActivation, cooldown: .seconds(3600)))
        ])
        #expect(try engine.fire(F.firing("a", at: F.t0), now: F.t0).count == 2)
        let time = F.at(second)
        let events = try engine.fire(F.firing("a", at: time), now: time)
        #expect(
            events.map(\.summary)
                == (delivered ? ["created a due \(time.rfc3339String)", "delivered a due \(time.rfc3339String)"] : []))
    }

    @Test("the cooldown is per beacon")
    func cooldownPerBeacon() throws {
        var engine = try F.engine([
            AlertRule(id: "a", policy: try AlertPolicy(firing: .everyActivation, cooldown: .seconds(3600)))
        ])
        _ = try engine.fire(F.firing("a", F.beaconA, at: F.t0), now: F.t0)
        #expect(try engine.fire(F.firing("a", F.beaconB, at: F.t0 + .seconds(60)), now: F.t0 + .seconds(60)).count == 2)
    }

    @Test("events carry alert id, beacon, strategy, identifier, content and times")
    func eventFields() throws {
        let content = AlertContent(title: "Welcome", message: "Hello", identifier: "rec-42")
        var engine = try F.engine([AlertRule(id: "welcome", content: content, policy: try AlertPolicy(delay: .seconds(60)))])
        let created = try #require(try engine.fire(F.firing("welcome", F.beaconB, at: F.t0), now: F.t0).first?.event)
        #expect(
            created
                == AlertEvent(
                    kind: .created, alertID: "welcome", beacon: F.beaconB, strategy: "time", time: F.t0,
                    scheduledFor: F.at("2025-01-06T09:01:00Z"), content: content))
        #expect(created.jsonLine.contains(#""identifier":"rec-42""#))
        let delivered = try #require(try engine.advance(to: F.at("2025-01-06T09:01:00Z")).first?.event)
        #expect(delivered.kind == .delivered)
        #expect(delivered.content == content)
        #expect(delivered.time == F.at("2025-01-06T09:01:00Z"))
    }

    @Test("a firing for an alert the engine does not know is refused")
    func unknownAlert() throws {
        var engine = try F.engine([])
        #expect(throws: AlertEngineError.unknownAlert("ghost")) {
            try engine.fire(F.firing("ghost", at: F.t0), now: F.t0)
        }
    }
}
