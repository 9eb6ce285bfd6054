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
        let offsets = Set([offset(at: local - 86_400), offset(at: local + 86_400), offset(at: local)])
        let exact = offsets.map { local - $0 }.filter { localSeconds(at: $0) == local }
        if let first = exact.min() { return first }
        // In a gap: find the first instant whose local time reaches `local` (monotonic here).
        var low = local - (offsets.max() ?? 0)   // local time before `local`
        var high = local - (offsets.min() ?? 0)  // local time at or after `local`
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if localSeconds(at: middle) >= local { high = middle } else { low = middle }
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
    init(wholeSeconds: Int64) { self.init(nanosecondsSinceEpoch: wholeSeconds * 1_000_000_000) }
}
