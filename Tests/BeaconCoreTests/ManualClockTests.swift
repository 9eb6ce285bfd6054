import BeaconTestSupport
import Testing

@testable import BeaconCore

@Suite("ManualClock")
struct ManualClockTests {
    @Test("Sleepers wake when the clock reaches their deadline, not before")
    func wakesAtDeadline() async throws {
        let clock = ManualClock(start: Timestamp(nanosecondsSinceEpoch: 0))
        let task = Task {
            try await clock.sleep(until: clock.now + .seconds(5), tolerance: nil)
            return clock.now
        }
        try #require(await eventually { clock.sleeperCount > 0 }, "the task under test never reached its wait")
        clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        let woke = try await task.value
        #expect(woke == Timestamp(nanosecondsSinceEpoch: 5_000_000_000))
        #expect(clock.sleeperCount == 0)
    }

    @Test("A cancelled sleeper throws CancellationError and leaves the clock")
    func cancellation() async throws {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(until: clock.now + .seconds(60), tolerance: nil) }
        try #require(await eventually { clock.sleeperCount > 0 }, "the task under test never reached its wait")
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("The clock never moves backwards")
    func monotonic() {
        let clock = ManualClock(start: Timestamp(nanosecondsSinceEpoch: 10))
        clock.advance(to: Timestamp(nanosecondsSinceEpoch: 5))
        #expect(clock.now == Timestamp(nanosecondsSinceEpoch: 10))
    }
}
