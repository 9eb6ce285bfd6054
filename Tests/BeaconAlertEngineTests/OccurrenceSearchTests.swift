import BeaconCore
import Testing

@testable import BeaconAlertEngine

/// Which occurrence of a series the engine schedules, alone (`OccurrenceSearch`): a table of
/// series, windows and renewals, each with the occurrence and due time worked out by hand.
@Suite("Occurrence search: the occurrence of a series to schedule, and when it is due")
struct OccurrenceSearchTests {
    /// Monday 2025-01-06.
    static func at(_ time: String) -> Timestamp { EngineFixture.at("2025-01-\(time)Z") }

    static func window(_ outside: String, days: [String]? = nil) throws -> DeliveryWindow {
        try DeliveryWindow(days: days, from: "08:00", to: "10:00", timeZone: "UTC", outsideWindow: outside)
    }

    @Test("without a window: the occurrence asked for, at the series start plus its spans")
    func plain() throws {
        let hourly = try AlertPolicy(repeat: .hourly)
        #expect(
            OccurrenceSearch.search(seriesStart: Self.at("06T09:00:00"), occurrence: 0, after: nil, policy: hourly)
                == .due(index: 0, at: Self.at("06T09:00:00"), messages: []))
        #expect(
            OccurrenceSearch.search(
                seriesStart: Self.at("06T09:00:00"), occurrence: 2, after: nil, policy: hourly, notes: ["a note"])
                == .due(index: 2, at: Self.at("06T11:00:00"), messages: ["a note"]))
    }

    @Test("a renewal takes the first occurrence strictly after its time, and says how many it skipped")
    func renewal() throws {
        let hourly = try AlertPolicy(repeat: .hourly)
        #expect(
            OccurrenceSearch.search(
                seriesStart: Self.at("06T09:00:00"), occurrence: 1, after: Self.at("06T11:30:00"), policy: hourly)
                == .due(
                    index: 3, at: Self.at("06T12:00:00"),
                    messages: [
                        "skipped 2 occurrence(s) due by 2025-01-06T11:30:00.000Z (missed, or merged into a deferred delivery)"
                    ]))
        #expect(
            OccurrenceSearch.search(
                seriesStart: Self.at("06T09:00:00"), occurrence: 1, after: Self.at("06T09:00:00"), policy: hourly)
                == .due(index: 1, at: Self.at("06T10:00:00"), messages: []),
            "the next occurrence is already after it")
        #expect(
            OccurrenceSearch.search(
                seriesStart: Self.at("06T09:00:00"), occurrence: 1, after: Self.at("13T09:00:00"), policy: hourly)
                == .due(
                    index: 169, at: Self.at("13T10:00:00"),
                    messages: [
                        "skipped 168 occurrence(s) due by 2025-01-13T09:00:00.000Z (missed, or merged into a deferred delivery)"
                    ]),
            "a week's pause: 168 hours skipped")
    }

    @Test("an occurrence outside a deferring window is due at its next opening")
    func deferred() throws {
        let policy = try AlertPolicy(repeat: .hourly, window: try Self.window("defer"))
        #expect(
            OccurrenceSearch.search(seriesStart: Self.at("06T10:30:00"), occurrence: 0, after: nil, policy: policy)
                == .due(
                    index: 0, at: Self.at("07T08:00:00"),
                    messages: [
                        "deferred from 2025-01-06T10:30:00.000Z to 2025-01-07T08:00:00.000Z: outside the delivery window (every day 08:00–10:00 UTC)"
                    ]))
    }

    @Test("a dropping window skips a series' occurrences outside it, and drops a one-off alert")
    func dropped() throws {
        let hourly = try AlertPolicy(repeat: .hourly, window: try Self.window("drop"))
        #expect(
            OccurrenceSearch.search(seriesStart: Self.at("06T09:30:00"), occurrence: 1, after: nil, policy: hourly)
                == .due(
                    index: 23, at: Self.at("07T08:30:00"),
                    messages: ["skipped 22 occurrence(s) outside the delivery window (every day 08:00–10:00 UTC)"]))
        let once = try AlertPolicy(window: try Self.window("drop"))
        #expect(
            OccurrenceSearch.search(seriesStart: Self.at("06T10:30:00"), occurrence: 0, after: nil, policy: once)
                == .dropped(
                    at: Self.at("06T10:30:00"),
                    message:
                        "dropped: due 2025-01-06T10:30:00.000Z, outside the delivery window (every day 08:00–10:00 UTC)"))
    }

    @Test("a series none of whose occurrences can fall inside its window stops")
    func stops() throws {
        // Weekly on Mondays, a window on Tuesdays only.
        let policy = try AlertPolicy(repeat: .weekly, window: try Self.window("drop", days: ["tue"]))
        #expect(
            OccurrenceSearch.search(seriesStart: Self.at("06T09:00:00"), occurrence: 0, after: nil, policy: policy)
                == .stops(
                    message:
                        "the series stops: no weekly occurrence falls inside the delivery window (tue 08:00–10:00 UTC); widen the window or change the repeat"
                ))
    }

    @Test("daily occurrences keep the local time across a change of clocks; a time past the years saturates")
    func occurrenceTimes() throws {
        let newYork = try DeliveryWindow(timeZone: "America/New_York")
        let daily = try AlertPolicy(repeat: .daily, window: newYork)
        // 07:00 EST on Saturday 2025-03-08; clocks go forward on the 9th: 07:00 EDT is 11:00 UTC.
        let start = EngineFixture.at("2025-03-08T12:00:00Z")
        #expect(
            OccurrenceSearch.time(ofOccurrence: 1, seriesStart: start, policy: daily) == EngineFixture.at("2025-03-09T11:00:00Z"))
        #expect(OccurrenceSearch.time(ofOccurrence: 0, seriesStart: start, policy: daily) == start)
        let hourly = try AlertPolicy(repeat: .hourly)
        #expect(
            OccurrenceSearch.time(ofOccurrence: 3, seriesStart: start, policy: hourly) == EngineFixture.at("2025-03-08T15:00:00Z")
        )
        #expect(OccurrenceSearch.time(ofOccurrence: .max, seriesStart: start, policy: hourly) == .distantFuture)
        #expect(OccurrenceSearch.time(ofOccurrence: 5, seriesStart: start, policy: try AlertPolicy()) == start, "no repeat")
    }
}
