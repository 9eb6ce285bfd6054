import BeaconCore
import Foundation

/// Wall-clock arithmetic in one IANA time zone, on whole seconds since the epoch.
///
/// "Local seconds" are the seconds since 1970-01-01T00:00 *local*, i.e. an instant plus the
/// zone's UTC offset at that instant. Offsets come from Foundation's `TimeZone` (tzdata).
struct ZonedClock: Hashable, Sendable {
    let timeZone: TimeZone

    /// The UTC offset, in seconds, at the instant `second` (seconds since the epoch).
    func offset(at second: Int64) -> Int64 {
        Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(second))))
    }

    /// The local wall-clock seconds of the instant `second`.
    func localSeconds(at second: Int64) -> Int64 { second + offset(at: second) }

    /// The local day number (days since 1970-01-01 local) of the instant `second`.
    func localDay(at second: Int64) -> Int64 { floorDivide(localSeconds(at: second), 86_400) }

    /// The earliest instant whose local wall-clock time is `local` or later.
    ///
    /// For a local time that exists once, that is its instant; for one that occurs twice (a
    /// fall-back change), its first occurrence; for one skipped by a spring-forward change, the
    /// instant the clocks jump (the first instant after the gap).
    func earliestInstant(atOrAfterLocal local: Int64) -> Int64 {
        // Every offset in force within a day of `local`: before, at and after a change.
        let before = offset(at: local - 86_400)
        let after = offset(at: local + 86_400)
        let middle = offset(at: local)
        var earliest: Int64?
        for candidate in [local - before, local - middle, local - after] where localSeconds(at: candidate) == local {
            earliest = min(earliest ?? candidate, candidate)
        }
        if let earliest { return earliest }
        // In a gap: find the first instant whose local time reaches `local` (monotonic here).
        var low = local - max(before, middle, after) // local time before `local`
        var high = local - min(before, middle, after) // local time at or after `local`
        while high - low > 1 {
            let half = low + (high - low) / 2
            if localSeconds(at: half) >= local { high = half } else { low = half }
        }
        return high
    }
}

/// Floor division (rounds towards negative infinity).
func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    let (q, r) = value.quotientAndRemainder(dividingBy: divisor)
    return r < 0 ? q - 1 : q
}

extension Timestamp {
    /// Whole seconds since the epoch, rounded down.
    var wholeSeconds: Int64 { floorDivide(nanosecondsSinceEpoch, 1_000_000_000) }

    /// The timestamp at a whole second.
    init(wholeSeconds: Int64) { self.init(seconds: wholeSeconds) }
}
