import ArgumentParser

extension ScanCommand {
    /// Parses `500ms`, `2.5ms`, `10s`, `5m`, `1h` (a bare number is seconds).
    static func parseDuration(_ text: String, option: String) throws -> Duration {
        let units: [(suffix: String, nanoseconds: Double)] = [("ms", 1e6), ("us", 1e3), ("s", 1e9), ("m", 60e9),
                                                               ("h", 3600e9)]
        let unit = units.first { text.hasSuffix($0.suffix) } ?? ("", 1e9)
        guard let value = Double(text.dropLast(unit.suffix.count)), value >= 0, value.isFinite else {
            throw ValidationError("\(option): '\(text)' is not a duration (e.g. 100ms, 10s, 5m)")
        }
        return .nanoseconds(Int64((value * unit.nanoseconds).rounded()))
    }
}
