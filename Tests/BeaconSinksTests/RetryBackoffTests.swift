import BeaconSinks
import Testing

@Suite("RetryBackoff")
struct RetryBackoffTests {
    /// 1 s doubling, capped at 10 s: 1, 2, 4, 8, 10, 10 (worked out by hand).
    @Test(
        "waits double per attempt up to the maximum",
        arguments: [
            (1, Duration.seconds(1)), (2, .seconds(2)), (3, .seconds(4)), (4, .seconds(8)), (5, .seconds(10)), (9, .seconds(10)),
        ])
    func exponential(attempt: Int, expected: Duration) {
        let backoff = RetryBackoff(initial: .seconds(1), multiplier: 2, maximum: .seconds(10), jitter: 0.2)
        #expect(backoff.delay(attempt: attempt, unit: 0.5) == expected)
    }

    /// ±20 % of 4 s: 3.2 s at the bottom of the random range, 4.8 s at the top.
    @Test(
        "jitter spreads the wait by the configured fraction",
        arguments: [
            (0.0, Duration.milliseconds(3200)), (1.0, .milliseconds(4800)), (0.25, .milliseconds(3600)),
        ])
    func jitter(unit: Double, expected: Duration) {
        let backoff = RetryBackoff(initial: .seconds(1), multiplier: 2, maximum: .seconds(60), jitter: 0.2)
        #expect(backoff.delay(attempt: 3, unit: unit) == expected)
    }
}
