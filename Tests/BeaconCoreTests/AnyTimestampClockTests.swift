import BeaconTestSupport
import Testing

@testable import BeaconCore

@Suite("AnyTimestampClock")
struct AnyTimestampClockTests {
    @Test("a timestamp clock is read as it is; sleep(until:) wakes when it gets there")
    func timestampClock() async throws {
        let manual = ManualClock(start: Timestamp(nanosecondsSinceEpoch: 5_000_000_000))
        let clock = AnyTimestampClock(manual)
        #expect(clock.now == manual.now)
        let deadline = manual.now + .seconds(2)
        let sleeper = Task { try await clock.sleep(until: deadline) }
        try #require(await eventually { manual.sleeperCount > 0 }, "the task under test never reached its wait")
        manual.advance(by: .seconds(1))
        #expect(manual.sleeperCount == 1)
        manual.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.now == deadline)
    }

    @Test("any clock of durations is mapped: now is the span since wrapping, after the origin")
    func mapped() async throws {
        let manual = ManualClock(start: Timestamp(nanosecondsSinceEpoch: 9_000_000_000))
        let origin = Timestamp(nanosecondsSinceEpoch: 100)
        let clock = AnyTimestampClock(mapping: DurationClock(manual), origin: origin)
        #expect(clock.now == origin)
        let sleeper = Task { try await clock.sleep(until: origin + .seconds(3)) }
        try #require(await eventually { manual.sleeperCount > 0 }, "the task under test never reached its wait")
        manual.advance(by: .seconds(3))
        try await sleeper.value
        #expect(clock.now == origin + .seconds(3))
    }
}

/// A `ManualClock` seen through instants of `Duration` (since its start), like a test clock of
/// the `any Clock<Duration>` kind.
private struct DurationClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    let manual: ManualClock
    let start: Timestamp

    init(_ manual: ManualClock) {
        self.manual = manual
        start = manual.now
    }

    var now: Instant { Instant(offset: manual.now - start) }
    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await manual.sleep(until: start + deadline.offset, tolerance: tolerance)
    }
}
