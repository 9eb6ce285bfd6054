/// A day of the week, ISO numbered (Monday = 1 … Sunday = 7).
public enum Weekday: Int, Hashable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// Reads `mon`…`sun` or the full English name, in any case.
    public init(parsing text: String) throws(AlertPolicyError) {
        let lower = text.lowercased()
        guard let day = Weekday.allCases.first(where: { $0.shortName == lower || "\($0)" == lower }) else {
            throw .unknownValue(option: "days", value: text, accepted: Weekday.allCases.map(\.shortName))
        }
        self = day
    }

    /// `mon` … `sun`.
    public var shortName: String { String(description.prefix(3)) }

    /// The weekday of a day counted from 1970-01-01 (a Thursday).
    init(daysSinceEpoch day: Int64) {
        let index = ((day % 7) + 7 + 3) % 7 // 0 = Monday
        self = Weekday(rawValue: Int(index) + 1)!
    }

    /// Monday first.
    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }

    /// The full English name in lower case.
    public var description: String {
        switch self {
        case .monday: "monday"
        case .tuesday: "tuesday"
        case .wednesday: "wednesday"
        case .thursday: "thursday"
        case .friday: "friday"
        case .saturday: "saturday"
        case .sunday: "sunday"
        }
    }
}
