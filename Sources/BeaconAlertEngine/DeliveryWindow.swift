import BeaconCore
import Foundation

/// When an alert may be delivered: some days of the week, between two local times of day, in
/// an IANA time zone.
///
/// The window of a local day *D* (one of `days`) opens at the earliest instant of *D* whose
/// local time is `from` or later, and closes at the earliest instant whose local time is `to`
/// or later — on *D*, or on the next day when `to` is not after `from` (an overnight window such
/// as 22:00–06:00 belongs to the day it opens). On DST days this follows the wall clock: on
/// Europe/Paris's spring-forward day a 02:30–03:30 window opens at 03:00 (the clocks skip
/// 02:00–03:00) and lasts 30 minutes; on its fall-back day it opens at the first 02:30 and closes
/// at 03:30, two hours later.
///
/// An alert due outside the window is deferred to the next opening or dropped
/// (``OutsideWindow``); the event's messages say which.
public struct DeliveryWindow: Hashable, Sendable, CustomStringConvertible {
    /// What happens to an alert due outside the window.
    public enum OutsideWindow: String, Hashable, Sendable, CaseIterable {
        /// Deliver it when the window next opens.
        case `defer`
        /// Do not deliver it (a `cancelled` event says so).
        case drop

        /// Reads `defer` or `drop`.
        public init(parsing text: String) throws(AlertPolicyError) {
            guard let value = OutsideWindow(rawValue: text) else {
                throw .unknownValue(option: "outsideWindow", value: text, accepted: Self.allCases.map(\.rawValue))
            }
            self = value
        }
    }

    /// The days the window opens on.
    public let days: Set<Weekday>
    /// Opening local time, seconds after midnight (0 ..< 86 400).
    public let fromSecond: Int64
    /// Closing local time, seconds after midnight (0 ... 86 400).
    public let toSecond: Int64
    /// The zone the days and times are read in.
    public let timeZone: TimeZone
    /// The zone's name as configured (Foundation may report `UTC` as `GMT`).
    public let timeZoneName: String
    /// What happens to an alert due outside the window.
    public let outsideWindow: OutsideWindow

    /// Creates a window from plain values: `days` as `mon`…`sun` (empty or `nil` = every day),
    /// `from`/`to` as `HH:MM` or `H:MM` (`to` may be `24:00`; default the whole day), an IANA zone name.
    public init(
        days: [String]? = nil, from: String = "00:00", to: String = "24:00", timeZone: String = "UTC",
        outsideWindow: String = "defer"
    ) throws(AlertPolicyError) {
        guard let zone = TimeZone(identifier: timeZone) else { throw .unknownTimeZone(timeZone) }
        var parsedDays = Set<Weekday>()
        for day in days ?? [] { parsedDays.insert(try Weekday(parsing: day)) }
        try self.init(
            days: days == nil ? Set(Weekday.allCases) : parsedDays,
            fromSecond: try Self.secondOfDay(from, option: "from", allowEndOfDay: false),
            toSecond: try Self.secondOfDay(to, option: "to", allowEndOfDay: true),
            timeZone: zone, timeZoneName: timeZone, outsideWindow: try OutsideWindow(parsing: outsideWindow))
    }

    /// Creates a window from typed values.
    public init(
        days: Set<Weekday> = Set(Weekday.allCases), fromSecond: Int64 = 0, toSecond: Int64 = 86_400,
        timeZone: TimeZone, timeZoneName: String? = nil,
        outsideWindow: OutsideWindow = .defer
    ) throws(AlertPolicyError) {
        guard !days.isEmpty else { throw .noWindowDays }
        guard (0..<86_400).contains(fromSecond) else {
            throw .invalidTimeOfDay(option: "from", value: Self.format(fromSecond))
        }
        guard (0...86_400).contains(toSecond) else { throw .invalidTimeOfDay(option: "to", value: Self.format(toSecond)) }
        guard fromSecond != toSecond else { throw .emptyWindow(from: Self.format(fromSecond), to: Self.format(toSecond)) }
        self.days = days
        self.fromSecond = fromSecond
        self.toSecond = toSecond
        self.timeZone = timeZone
        self.timeZoneName = timeZoneName ?? timeZone.identifier
        self.outsideWindow = outsideWindow
    }

    /// E.g. `mon, tue 08:00–18:00 Europe/Paris`.
    public var description: String {
        let dayList = days.count == 7 ? "every day" : days.sorted().map(\.shortName).joined(separator: ", ")
        return "\(dayList) \(Self.format(fromSecond))–\(Self.format(toSecond)) \(timeZoneName)"
    }

    /// Reads `HH:MM` or `HH:MM:SS` as seconds after midnight.
    static func secondOfDay(_ text: String, option: String, allowEndOfDay: Bool) throws(AlertPolicyError) -> Int64 {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), (1...2).contains(parts[0].count),
            parts.dropFirst().allSatisfy({ $0.count == 2 }), parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hour = Int64(parts[0]), let minute = Int64(parts[1]),
            let second = parts.count == 3 ? Int64(parts[2]) : 0,
            minute < 60, second < 60
        else { throw .invalidTimeOfDay(option: option, value: text) }
        let value = hour * 3600 + minute * 60 + second
        guard value < 86_400 || (allowEndOfDay && value == 86_400) else { throw .invalidTimeOfDay(option: option, value: text) }
        return value
    }

    /// `HH:MM` (with `:SS` when not a whole minute).
    static func format(_ second: Int64) -> String {
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let base = "\(two(second / 3600)):\(two(second % 3600 / 60))"
        return second % 60 == 0 ? base : base + ":\(two(second % 60))"
    }
}
