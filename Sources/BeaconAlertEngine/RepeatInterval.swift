/// How an alert repeats after its first delivery. Occurrence *n* is due at the original
/// scheduled time plus *n* intervals — counted from that time, never from the moment an
/// earlier occurrence was actually delivered, so a late or deferred delivery does not shift
/// the series.
///
/// `hourly` and `minutely` add fixed spans. `daily` and `weekly` keep the local wall-clock time
/// in the window's time zone (UTC without a window): across a DST change a daily alert at 02:30
/// stays at 02:30 local. A local time skipped by a spring-forward change is delivered at the
/// first instant after the gap (03:00 in Europe/Paris); a local time that occurs twice at a
/// fall-back change is delivered at its first occurrence.
public enum RepeatInterval: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Delivered once.
    case off
    /// Every 60 seconds. **For tests only**: do not use it in production.
    case minutely
    /// Every hour.
    case hourly
    /// Every day at the same local time.
    case daily
    /// Every week at the same local time and weekday.
    case weekly

    /// Reads `off`, `minutely`, `hourly`, `daily` or `weekly`.
    public init(parsing text: String) throws(AlertPolicyError) {
        guard let interval = RepeatInterval(rawValue: text) else {
            throw .unknownValue(option: "repeat", value: text, accepted: Self.allCases.map(\.rawValue))
        }
        self = interval
    }

    /// The nominal length of one interval (exact for `minutely` and `hourly`).
    public var nominalLength: Duration? {
        switch self {
        case .off: nil
        case .minutely: .seconds(60)
        case .hourly: .seconds(3600)
        case .daily: .seconds(86_400)
        case .weekly: .seconds(7 * 86_400)
        }
    }

    /// For `daily` and `weekly`: the number of local days in one interval.
    var calendarDays: Int64? {
        switch self {
        case .daily: 1
        case .weekly: 7
        default: nil
        }
    }

    /// The configuration spelling.
    public var description: String { rawValue }
}
