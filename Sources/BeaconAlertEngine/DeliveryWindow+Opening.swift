import BeaconCore

extension DeliveryWindow {
    /// The zone's wall-clock arithmetic.
    var clock: ZonedClock { ZonedClock(timeZone: timeZone) }

    /// The window interval `[open, close)` of local day `day`, in whole seconds, or `nil` when
    /// the window does not open that day.
    func interval(onLocalDay day: Int64) -> Range<Int64>? {
        guard days.contains(Weekday(daysSinceEpoch: day)) else { return nil }
        let clock = clock
        let open = clock.earliestInstant(atOrAfterLocal: day * 86_400 + fromSecond)
        let closeLocal = toSecond > fromSecond ? day * 86_400 + toSecond : (day + 1) * 86_400 + toSecond
        let close = clock.earliestInstant(atOrAfterLocal: closeLocal)
        return open < close ? open..<close : nil
    }

    /// True when the window is open at `time`.
    public func contains(_ time: Timestamp) -> Bool {
        nextOpening(atOrAfter: time) == time
    }

    /// `time` itself when the window is open then, else the instant it next opens.
    public func nextOpening(atOrAfter time: Timestamp) -> Timestamp {
        let second = time.wholeSeconds
        let today = clock.localDay(at: second)
        // An overnight window that opened yesterday may still be open; a week ahead always has one.
        for day in (today - 1)...(today + 8) {
            guard let interval = interval(onLocalDay: day), second < interval.upperBound else { continue }
            return second >= interval.lowerBound ? time : Timestamp(wholeSeconds: interval.lowerBound)
        }
        return time // unreachable: `days` is never empty
    }
}
