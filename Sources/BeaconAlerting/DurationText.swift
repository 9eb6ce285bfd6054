/// Reads and writes durations as configuration spells them: a whole number and a unit,
/// `500ms`, `3s`, `10m`, `2h`.
public enum DurationText {
    private static let units: [(suffix: String, nanoseconds: Int64)] = [
        ("ms", 1_000_000), ("s", 1_000_000_000), ("m", 60_000_000_000), ("h", 3_600_000_000_000),
    ]

    /// Parses `500ms`, `3s`, `10m` or `2h` (no sign, no fraction, no spaces); nil otherwise.
    public static func parse(_ text: String) -> Duration? {
        // "ms" must be tried before "m" and "s".
        for unit in [units[0], units[1], units[2], units[3]] where text.hasSuffix(unit.suffix) {
            let digits = text.dropLast(unit.suffix.count)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let count = Int64(digits) else { return nil }
            let (total, overflow) = count.multipliedReportingOverflow(by: unit.nanoseconds)
            return overflow ? nil : .nanoseconds(total)
        }
        return nil
    }

    /// Writes `duration` with the largest unit that represents it exactly (`90s`, `2m`, `500ms`).
    /// Durations that are not whole milliseconds are written in milliseconds, rounded.
    public static func format(_ duration: Duration) -> String {
        let nanoseconds = duration.nanoseconds
        for unit in units.reversed() where nanoseconds != 0 && nanoseconds % unit.nanoseconds == 0 {
            return "\(nanoseconds / unit.nanoseconds)\(unit.suffix)"
        }
        if nanoseconds == 0 { return "0s" }
        return "\((Double(nanoseconds) / 1e6).rounded())ms"
    }
}
