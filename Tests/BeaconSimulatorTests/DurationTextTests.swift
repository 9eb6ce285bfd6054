import BeaconSimulator
import Testing

@Suite("Duration text")
struct DurationTextTests {
    @Test("durations", arguments: [("90s", 90_000_000_000), ("10m", 600_000_000_000), ("24h", 86_400_000_000_000),
                                  ("250ms", 250_000_000), ("376us", 376_000), ("1.5s", 1_500_000_000), ("0", 0)] as [(String, Int64)])
    func durations(text: String, nanoseconds: Int64) {
        #expect(DurationText.parse(text) == .nanoseconds(nanoseconds))
    }

    @Test("durations without a unit are rejected", arguments: ["90", "s", "-5s", "5 parsecs", ""])
    func badDurations(text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test("formatting to the millisecond", arguments: [(90_000, "90s"), (75_500, "75.5s"), (250, "250ms"), (0, "0s")] as [(Int64, String)])
    func format(milliseconds: Int64, text: String) {
        #expect(DurationText.format(.milliseconds(milliseconds)) == text)
    }
}
