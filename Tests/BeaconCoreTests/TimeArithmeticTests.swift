import BeaconCore
import Testing

/// Time arithmetic cannot trap on any input (issue 26, defect 1: a report dated 2300 crashed the
/// hub in date parsing). Each case here trapped, or wrapped round, before.
@Suite("Time arithmetic: no input traps or wraps")
struct TimeArithmeticTests {
    @Test(
        "a date-time outside 1900–2200 is refused, not a trap",
        arguments: [
            "2300-01-01T00:00:00Z", "2263-01-01T00:00:00Z", "2262-04-12T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
            "2201-01-01T00:00:00Z", "1899-12-31T23:59:59Z", "0000-01-01T00:00:00Z", "1677-09-21T00:00:00Z",
        ])
    func outOfRangeYears(text: String) {
        #expect(Timestamp(rfc3339: text) == nil)
    }

    @Test("the first and last supported instants parse, and read back")
    func supportedBounds() throws {
        let first = try #require(Timestamp(rfc3339: "1900-01-01T00:00:00Z"))
        let last = try #require(Timestamp(rfc3339: "2200-12-31T23:59:59.999Z"))
        #expect(first.rfc3339String == "1900-01-01T00:00:00.000Z")
        #expect(last.rfc3339String == "2200-12-31T23:59:59.999Z")
        // An offset of 23:59 at either end stays inside 64-bit nanoseconds.
        #expect(Timestamp(rfc3339: "2200-12-31T23:59:59-23:59") != nil)
        #expect(Timestamp(rfc3339: "2025-01-01T00:00:00+24:00") == nil)
    }

    @Test("adding or subtracting durations saturates at the representable bounds")
    func saturation() {
        #expect(Timestamp.distantFuture + .seconds(1) == .distantFuture)
        #expect(Timestamp.distantPast - .seconds(1) == .distantPast)
        #expect(Timestamp.distantPast + .seconds(-1) == .distantPast)
        #expect(Timestamp.distantFuture - .nanoseconds(Int64.min) == .distantFuture)
        #expect(Timestamp.distantPast.duration(to: .distantFuture) == .nanoseconds(Int64.max))
        #expect(Timestamp.distantFuture.duration(to: .distantPast) == .nanoseconds(Int64.min))
        #expect(Timestamp.distantFuture - Timestamp.distantPast == .nanoseconds(Int64.max))
        #expect(Timestamp.epoch + .seconds(1) == Timestamp(nanosecondsSinceEpoch: 1_000_000_000))
    }

    @Test("construction from any microseconds, seconds or float saturates instead of trapping or wrapping")
    func construction() {
        #expect(Timestamp(microsecondsSinceEpoch: .max) == .distantFuture)
        #expect(Timestamp(microsecondsSinceEpoch: .min) == .distantPast)
        #expect(Timestamp(microsecondsSinceEpoch: 1_500) == Timestamp(nanosecondsSinceEpoch: 1_500_000))
        #expect(Timestamp(secondsSinceEpoch: .nan) == .epoch)
        #expect(Timestamp(secondsSinceEpoch: .infinity) == .distantFuture)
        #expect(Timestamp(secondsSinceEpoch: -1e300) == .distantPast)
        #expect(Timestamp(seconds: .max) == .distantFuture)
        #expect(Timestamp(seconds: .min, nanoseconds: -1) == .distantPast)
        #expect(Timestamp(seconds: 2, nanoseconds: 5) == Timestamp(nanosecondsSinceEpoch: 2_000_000_005))
    }

    @Test("formatting any timestamp terminates with a well-formed text")
    func formattingExtremes() {
        for value: Int64 in [.min, .min + 1, -1, 0, 1, .max - 1, .max] {
            let time = Timestamp(nanosecondsSinceEpoch: value)
            #expect(time.rfc3339String.hasSuffix("Z"))
            #expect(time.unixSecondsString.contains("."))
        }
        #expect(Timestamp.distantFuture.rfc3339String.hasPrefix("2262-04-11T23:47:16"))
        #expect(Timestamp.distantPast.rfc3339String.hasPrefix("1677-09-21T00:12:43"))
    }

    @Test("a duration longer than 100 years is refused; the extreme duration prints")
    func durations() {
        #expect(Duration(parsing: "36500d") == .seconds(36_500 * 86_400))
        #expect(Duration(parsing: "36501d") == nil)
        #expect(Duration(parsing: "300y") == nil)
        #expect(Duration(parsing: "99999999999999999999h") == nil)
        #expect(Duration(parsing: "1e400s") == nil)
        #expect(Duration.nanoseconds(Int64.min).humanReadable.hasPrefix("-"))
    }
}
