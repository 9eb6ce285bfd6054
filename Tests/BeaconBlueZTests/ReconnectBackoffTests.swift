import BeaconBlueZ
import Testing

@Suite("ReconnectBackoff")
struct ReconnectBackoffTests {
    @Test("Doubles from the initial wait and stays at the cap")
    func sequence() {
        let backoff = ReconnectBackoff(initial: .seconds(1), maximum: .seconds(30))
        let delays = (1...8).map { backoff.delay(beforeAttempt: $0) }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30, 30].map { Duration.seconds($0) })
        #expect(backoff.delay(beforeAttempt: 1_000_000) == .seconds(30))
    }

    @Test("Never zero, so a dead adapter is never polled in a tight loop")
    func neverZero() {
        let backoff = ReconnectBackoff(initial: .zero, maximum: .zero)
        #expect(backoff.delay(beforeAttempt: 1) == .milliseconds(1))
        #expect(backoff.maximum == .milliseconds(1))
    }
}
