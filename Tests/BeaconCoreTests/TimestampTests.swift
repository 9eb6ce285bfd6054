import Testing

@testable import BeaconCore

@Suite("Timestamp")
struct TimestampTests {
    @Test(
        "RFC 3339 formatting against known instants",
        arguments: [
            (Int64(0), "1970-01-01T00:00:00.000Z"),
            (Int64(1_612_137_600_123_456_789), "2021-02-01T00:00:00.123Z"),
            (Int64(951_782_400_000_000_000), "2000-02-29T00:00:00.000Z"), // leap day
            (Int64(-1_000_000), "1969-12-31T23:59:59.999Z"),
            (Int64(1_735_689_599_999_000_000), "2024-12-31T23:59:59.999Z"),
        ])
    func formatsRFC3339(nanos: Int64, expected: String) {
        #expect(Timestamp(nanosecondsSinceEpoch: nanos).rfc3339String == expected)
    }

    @Test("Unix seconds keep exactly six decimals, truncating below a microsecond")
    func unixSeconds() {
        #expect(Timestamp(nanosecondsSinceEpoch: 1_612_137_600_000_001_999).unixSecondsString == "1612137600.000001")
        #expect(Timestamp(microsecondsSinceEpoch: 5).unixSecondsString == "0.000005")
        #expect(Timestamp(microsecondsSinceEpoch: -1).unixSecondsString == "-1.999999")
    }

    @Test(
        "RFC 3339 parsing accepts offsets and fractions, rejects malformed text",
        arguments: [
            ("2025-01-01T00:00:00Z", Int64(1_735_689_600_000_000_000)),
            ("2025-01-01T02:00:00+02:00", Int64(1_735_689_600_000_000_000)),
            ("2025-01-01 00:00:00.25Z", Int64(1_735_689_600_250_000_000)),
            ("1999-12-31T19:00:00-05:00", Int64(946_684_800_000_000_000)),
        ])
    func parsesRFC3339(text: String, nanos: Int64) {
        #expect(Timestamp(rfc3339: text)?.nanosecondsSinceEpoch == nanos)
    }

    @Test(
        "Malformed RFC 3339 text is rejected",
        arguments: [
            "", "2025-01-01", "2025-13-01T00:00:00Z", "2025-01-01T00:00:00", "2025-01-01T00:00:00.Z",
            "2025-01-01T00:00:00Zjunk", "abcd-01-01T00:00:00Z",
        ])
    func rejectsMalformed(text: String) {
        #expect(Timestamp(rfc3339: text) == nil)
    }

    @Test("Round trip through RFC 3339 at millisecond resolution")
    func roundTrip() {
        for nanos in stride(from: Int64(-86_400_000_000_000), to: 4_102_444_800_000_000_000, by: 97_531_246_802_468) {
            let t = Timestamp(nanosecondsSinceEpoch: nanos / 1_000_000 * 1_000_000)
            #expect(Timestamp(rfc3339: t.rfc3339String) == t)
        }
    }

    @Test("Arithmetic with Duration")
    func arithmetic() {
        let t = Timestamp(nanosecondsSinceEpoch: 10_000_000_000)
        #expect((t + .seconds(3)).nanosecondsSinceEpoch == 13_000_000_000)
        #expect((t - .milliseconds(1)).nanosecondsSinceEpoch == 9_999_000_000)
        #expect((t + .seconds(3)) - t == .seconds(3))
        #expect(Duration.milliseconds(1500).nanoseconds == 1_500_000_000)
        #expect(Duration.milliseconds(1500).secondsValue == 1.5)
    }
}
