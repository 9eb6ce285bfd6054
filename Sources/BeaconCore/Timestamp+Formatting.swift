extension Timestamp {
    /// Unix seconds with exactly six decimals, e.g. `1612137600.123456` (the `time` column of
    /// `beacond parse --format csv`).
    public var unixSecondsString: String {
        let micros = microsecondsSinceEpoch
        let (q, r) = micros.quotientAndRemainder(dividingBy: 1_000_000)
        let (seconds, fraction) = r < 0 ? (q - 1, r + 1_000_000) : (q, r)
        return "\(seconds)." + Self.zeroPadded(fraction, width: 6)
    }

    /// RFC 3339 in UTC with milliseconds, e.g. `2021-02-01T12:00:00.123Z`.
    public var rfc3339String: String { formatted(date: true) }

    /// The time of day in UTC, `HH:MM:SS` (the second it is in): what a timeline within one day
    /// reads best.
    public var timeOfDayString: String { formatted(date: false) }

    private func formatted(date: Bool) -> String {
        let millis = Self.floorDivide(nanosecondsSinceEpoch, 1_000_000)
        let days = Self.floorDivide(millis, 86_400_000)
        var rest = millis - days * 86_400_000
        let hour = rest / 3_600_000
        rest %= 3_600_000
        let minute = rest / 60_000
        rest %= 60_000
        let second = rest / 1_000
        let milli = rest % 1_000
        let clock =
            Self.zeroPadded(hour, width: 2) + ":" + Self.zeroPadded(minute, width: 2) + ":"
            + Self.zeroPadded(second, width: 2)
        guard date else { return clock }
        let (year, month, day) = Self.civilDate(daysSinceEpoch: days)
        return Self.zeroPadded(year, width: 4) + "-" + Self.zeroPadded(month, width: 2) + "-"
            + Self.zeroPadded(day, width: 2) + "T" + clock + "." + Self.zeroPadded(milli, width: 3) + "Z"
    }

    /// The years a date-time may name in any text beacond reads (configuration, scenarios,
    /// gateway reports): 1900–2200. Timestamps count nanoseconds in 64 bits, which ends in
    /// April 2262; the margin keeps every sum of a parsed time and a parsed duration (at most
    /// `Duration.maximumParsed`) far from the bound.
    public static let supportedYears: ClosedRange<Int64> = 1900...2200

    /// Parses RFC 3339 / ISO 8601 date-times such as `2025-01-01T00:00:00Z`,
    /// `2025-01-01T00:00:00.250+02:00` or `2025-01-01 00:00:00Z`. Returns `nil` when the text is
    /// not of that form, or names a year outside ``supportedYears``.
    public init?(rfc3339 text: String) {
        let b = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= b.count else { return nil }
            var value: Int64 = 0
            for i in from..<(from + count) {
                let d = b[i] &- 48
                guard d < 10 else { return nil }
                value = value * 10 + Int64(d)
            }
            return value
        }
        guard b.count >= 20,
            let year = number(0, 4), b[4] == UInt8(ascii: "-"),
            let month = number(5, 2), b[7] == UInt8(ascii: "-"),
            let day = number(8, 2),
            b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
            let hour = number(11, 2), b[13] == UInt8(ascii: ":"),
            let minute = number(14, 2), b[16] == UInt8(ascii: ":"),
            let second = number(17, 2),
            Self.supportedYears.contains(year), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        var i = 19
        var nanos: Int64 = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var digits = 0
            while i < b.count, b[i] &- 48 < 10 {
                if digits < 9 {
                    nanos = nanos * 10 + Int64(b[i] - 48)
                    digits += 1
                }
                i += 1
            }
            guard digits > 0 else { return nil }
            while digits < 9 {
                nanos *= 10
                digits += 1
            }
        }
        guard i < b.count else { return nil }
        var offsetSeconds: Int64 = 0
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            i += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard let oh = number(i + 1, 2), b.count > i + 3, b[i + 3] == UInt8(ascii: ":"),
                let om = number(i + 4, 2), oh < 24, om < 60
            else { return nil }
            offsetSeconds = (oh * 3600 + om * 60) * (b[i] == UInt8(ascii: "+") ? 1 : -1)
            i += 6
        default:
            return nil
        }
        guard i == b.count else { return nil }
        // Within the supported years every step below is far from overflowing.
        let days = Self.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        self.init(nanosecondsSinceEpoch: seconds * 1_000_000_000 + nanos)
    }

    // Howard Hinnant's civil-from-days and days-from-civil algorithms (proleptic Gregorian).
    static func civilDate(daysSinceEpoch z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = floorDivide(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func daysSinceEpoch(year y0: Int64, month m: Int64, day d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = floorDivide(y, 400)
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let (q, r) = a.quotientAndRemainder(dividingBy: b)
        return r < 0 ? q - 1 : q
    }

    static func zeroPadded(_ value: Int64, width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

extension Timestamp: CustomStringConvertible {
    public var description: String { rfc3339String }
}
