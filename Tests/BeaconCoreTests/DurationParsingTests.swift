import Testing

@testable import BeaconCore

@Suite("Duration parsing")
struct DurationParsingTests {
    @Test(
        "Configuration durations parse to the expected span",
        arguments: [
            ("250ms", Int64(250_000_000)), ("3s", 3_000_000_000), ("1.5s", 1_500_000_000),
            ("10m", 600_000_000_000), ("2h", 7_200_000_000_000), ("1d", 86_400_000_000_000),
            ("1h30m", 5_400_000_000_000), (" 60s ", 60_000_000_000), ("5min", 300_000_000_000),
            ("376us", 376_000), ("376µs", 376_000), ("12ns", 12), ("0", 0), ("24h", 86_400_000_000_000),
        ])
    func parses(text: String, nanoseconds: Int64) {
        #expect(Duration(parsing: text)?.nanoseconds == nanoseconds)
    }

    @Test(
        "Bare numbers, unknown units and junk are rejected",
        arguments: ["", "60", "3 s x", "3sec", "s", "-3s", "1e3s", "3s4", "5 parsecs", "00"])
    func rejects(text: String) {
        #expect(Duration(parsing: text) == nil)
    }

    @Test(
        "The human form reads back to the same duration",
        arguments: [
            Duration.milliseconds(250), .seconds(3), .milliseconds(1500), .seconds(600), .seconds(5400), .seconds(90061),
        ])
    func roundTrips(duration: Duration) {
        #expect(Duration(parsing: duration.humanReadable) == duration)
    }

    @Test("Human form is compact")
    func humanForm() {
        #expect(Duration.seconds(5400).humanReadable == "1h30m")
        #expect(Duration.milliseconds(250).humanReadable == "250ms")
        #expect(Duration.seconds(60).humanReadable == "1m")
    }

    @Test(
        "The approximate form, for logs: three significant figures in the unit that fits, read back rounded",
        arguments: [
            (Duration.nanoseconds(1_169_012_837), "1.17s"), (.nanoseconds(999), "999ns"), (.microseconds(850), "850us"),
            (.nanoseconds(840_400_000), "840ms"), (.seconds(2), "2s"), (.milliseconds(2500), "2.5s"),
            (.milliseconds(9_996), "10s"), (.milliseconds(12_540), "12.5s"), (.milliseconds(59_990), "1m"),
            (.seconds(185), "3m5s"), (.milliseconds(7_200_400), "2h"), (.milliseconds(-1500), "-1.5s"),
            (.nanoseconds(999_600), "1ms"), (.nanoseconds(999_600_000), "1s"),
        ])
    func approximate(duration: Duration, expected: String) throws {
        #expect(duration.approximate == expected)
        let back = try #require(Duration(parsing: expected.hasPrefix("-") ? String(expected.dropFirst()) : expected))
        let magnitude = duration < .zero ? Duration.zero - duration : duration
        #expect(abs((back - magnitude).secondsValue) <= max(magnitude.secondsValue * 0.005, 1e-9))
    }
}
