/// Durations written the way people write them: `90s`, `10m`, `24h`, `250ms`, `376us`, `1.5s`, `2d`.
public enum DurationText {
    /// Parses `<number><unit>` with unit `ns`, `us`, `ms`, `s`, `m`, `h` or `d`; `0` alone is
    /// also accepted. Returns `nil` for anything else (negative values included).
    public static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingSpaces
        if trimmed == "0" { return .zero }
        var numberEnd = trimmed.startIndex
        while numberEnd < trimmed.endIndex, trimmed[numberEnd].isNumber || trimmed[numberEnd] == "." {
            numberEnd = trimmed.index(after: numberEnd)
        }
        guard numberEnd > trimmed.startIndex, let value = Double(trimmed[..<numberEnd]) else { return nil }
        let scale: Double
        switch trimmed[numberEnd...] {
        case "ns": scale = 1
        case "us", "µs": scale = 1e3
        case "ms": scale = 1e6
        case "s": scale = 1e9
        case "m", "min": scale = 60e9
        case "h": scale = 3600e9
        case "d": scale = 86_400e9
        default: return nil
        }
        return .nanoseconds(Int64((value * scale).rounded()))
    }

    /// Formats a duration compactly (`90s`, `75.5s`, `250ms`) for messages and tables,
    /// to the millisecond.
    public static func format(_ duration: Duration) -> String {
        let ms = duration.nanoseconds / 1_000_000
        if ms % 1000 == 0 { return "\(ms / 1000)s" }
        if abs(ms) < 1000 { return "\(ms)ms" }
        return "\(Double(ms) / 1000)s"
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return String(s)
    }
}
