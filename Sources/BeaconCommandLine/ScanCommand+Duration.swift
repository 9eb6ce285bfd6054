import ArgumentParser
import BeaconCore

extension ScanCommand {
    /// Parses `500ms`, `2.5ms`, `10s`, `5m`, `1h30m` (``Duration/init(parsing:)``), or fails
    /// naming the option.
    static func parseDuration(_ text: String, option: String) throws -> Duration {
        guard let duration = Duration(parsing: text), duration >= .zero else {
            throw ValidationError("\(option): '\(text)' is not a duration (e.g. 100ms, 10s, 5m)")
        }
        return duration
    }
}
