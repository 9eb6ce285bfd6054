import BeaconAlerting
import Testing

@Suite("DurationText: 500ms, 3s, 10m, 2h")
struct DurationTextTests {
    @Test("parses a whole number and a unit", arguments: [
        ("500ms", Duration.milliseconds(500)), ("3s", .seconds(3)), ("10m", .seconds(600)),
        ("2h", .seconds(7200)), ("0s", .zero), ("90s", .seconds(90)),
    ])
    func parses(text: String, expected: Duration) {
        #expect(DurationText.parse(text) == expected)
    }

    @Test("rejects fractions, signs, spaces, bare numbers and unknown units", arguments: [
        "1.5m", "3", "s", "-3s", "+3s", "3 s", "3S", "", "3d", "ms", "1e3s", "99999999999999999999h",
    ])
    func rejects(text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test("formats with the largest exact unit", arguments: [
        (Duration.seconds(90), "90s"), (.seconds(120), "2m"), (.milliseconds(500), "500ms"),
        (.seconds(7200), "2h"), (.zero, "0s"), (.milliseconds(1500), "1500ms"),
    ])
    func formats(duration: Duration, expected: String) {
        #expect(DurationText.format(duration) == expected)
    }
}
