import BeaconAlertEngine
import BeaconCore
import Foundation
import Testing

/// Content per occurrence (issue 39, item 1): templates over what the alert knows, and a list of
/// messages taken in turn, at random or by day. Times are written out; none is read from a clock.
@Suite("Content per occurrence: templates and message lists")
struct ContentVariationsTests {
    typealias F = EngineFixture

    static func context(
        name: String? = "Anna's badge", room: String? = "café", dwell: Duration? = .seconds(250), attempt: Int = 0,
        time: Timestamp = F.t0, zone: String = "Europe/Paris"
    ) -> ContentContext {
        ContentContext(
            alertID: "desk", beacon: F.beaconA, name: name, room: room, dwell: dwell, attempt: attempt, time: time,
            timeZone: TimeZone(identifier: zone)!)
    }

    @Test("every field is filled in; {{ and }} write braces; what is not known says so")
    func fields() throws {
        let template = try ContentTemplate(
            parsing: "{name} ({beacon}) in the {room} for {dwell}, delivery {attempt} of {alert} at {time} on {date} {{ok}}")
        #expect(
            template.render(Self.context(attempt: 2))
                == "Anna's badge (\(F.beaconA)) in the café for 4m10s, delivery 3 of desk at 10:00 on 2025-01-06 {ok}")
        #expect(
            template.render(Self.context(name: nil, room: nil, dwell: nil))
                == "\(F.beaconA) (\(F.beaconA)) in the unknown for unknown, delivery 1 of desk at 10:00 on 2025-01-06 {ok}")
        #expect(template.fields == [.name, .beacon, .room, .dwell, .attempt, .alert, .time, .date])
        #expect(try ContentTemplate(parsing: "no fields at all").isConstant)
    }

    @Test("an unknown field, an unclosed or an unopened brace is refused, naming the fields")
    func refusals() {
        #expect(throws: ContentTemplateError.unknownField("nmae", in: "Hello {nmae}")) {
            try ContentTemplate(parsing: "Hello {nmae}")
        }
        #expect(ContentTemplateError.unknownField("nmae", in: "Hello {nmae}").description.contains("{name}, {beacon}, {room}"))
        #expect(throws: ContentTemplateError.unclosedBrace("Hello {name")) { try ContentTemplate(parsing: "Hello {name") }
        #expect(throws: ContentTemplateError.unopenedBrace("Hello name}")) { try ContentTemplate(parsing: "Hello name}") }
    }

    @Test("nothing varies: no variations (an alert with fixed content costs nothing)")
    func constant() throws {
        #expect(
            ContentVariations(title: try ContentTemplate(parsing: "Hi"), messages: [try ContentTemplate(parsing: "x")]) == nil)
        #expect(ContentVariations(title: nil, messages: []) == nil)
        #expect(ContentVariations(title: nil, messages: [try .init(parsing: "a"), try .init(parsing: "b")]) != nil)
    }

    static func three(_ pick: MessagePick) throws -> ContentVariations {
        try #require(
            ContentVariations(
                title: try ContentTemplate(parsing: "For {name}"),
                messages: [try .init(parsing: "one"), try .init(parsing: "two"), try .init(parsing: "three")], pick: pick))
    }

    @Test("in turn: each delivery says the next message, round the list; the title is filled in")
    func inTurn() throws {
        let variations = try Self.three(.inTurn)
        let said = (0..<5).map { turn in
            variations.render(AlertContent(title: "For {name}", message: "one"), turn: turn, due: F.t0, context: Self.context())
        }
        #expect(said.map(\.message) == ["one", "two", "three", "one", "two"])
        #expect(said.allSatisfy { $0.title == "For Anna's badge" })
    }

    @Test("by day: one message a day, the next the next day (in the alert's time zone)")
    func byDay() throws {
        let variations = try Self.three(.byDay)
        func said(_ time: String, zone: String = "Europe/Paris") -> String? {
            variations.message(turn: 0, due: F.at(time), context: Self.context(time: F.at(time), zone: zone))?.description
        }
        let monday = said("2025-01-06T09:00:00Z")
        #expect(said("2025-01-06T22:59:00Z") == monday, "23:59 in Paris is the same day")
        let tuesday = said("2025-01-06T23:01:00Z")
        #expect(tuesday != monday, "00:01 in Paris is the next day")
        #expect(said("2025-01-07T12:00:00Z") == tuesday)
        #expect(Set([monday, tuesday, said("2025-01-08T12:00:00Z")]).count == 3, "three days, three messages")
        #expect(said("2025-01-09T12:00:00Z") == monday, "round the list")
    }

    @Test("at random: the same delivery always says the same; over many, every message comes up")
    func random() throws {
        let variations = try Self.three(.random)
        let dues = (0..<60).map { F.t0 + .seconds(600 * $0) }
        let first = dues.map { variations.message(turn: 0, due: $0, context: Self.context())!.description }
        let again = dues.map { variations.message(turn: 0, due: $0, context: Self.context())!.description }
        #expect(first == again, "a replay or a restart says what the first run said")
        #expect(Set(first) == ["one", "two", "three"], "\(first)")
        let reminder = dues.map { variations.message(turn: 1, due: $0, context: Self.context(attempt: 1))!.description }
        #expect(reminder != first, "a reminder draws again")
    }
}
