import BeaconCore
import Foundation

/// Which occurrence of an alert's series to schedule, and when it is due: the occurrence asked
/// for, or (a renewal) the first due strictly after a time, moved by the delivery window. A pure
/// function of the series and its policy; the engine schedules what it finds and emits what it
/// says.
enum OccurrenceSearch: Equatable {
    /// Schedule occurrence `index`, due at `due`; `messages` say what was deferred or skipped on
    /// the way (after the caller's notes).
    case due(index: Int, at: Timestamp, messages: [String])
    /// The series stops: no occurrence can fall inside the delivery window. `message` says so.
    case stops(message: String)
    /// A one-off alert due at `time` falls outside a window that drops: it is cancelled.
    case dropped(at: Timestamp, message: String)

    /// Searches a series started at `seriesStart` from occurrence `occurrence` — or, when `after`
    /// is given, for the first occurrence due strictly after it — under `policy`'s repeat and
    /// window. `notes` lead the messages of an occurrence found. An alert whose priority passes
    /// its delivery window is found as if it had none, and its messages say when the window was
    /// closed.
    static func search(
        seriesStart: Timestamp, occurrence: Int, after: Timestamp?, policy: AlertPolicy, notes: [String] = []
    ) -> OccurrenceSearch {
        var index = occurrence
        var skippedByTime = 0
        var skippedByWindow = 0
        var messages = notes
        // A long pause (or a minutely series): jump close to `after` instead of walking every occurrence.
        if let after, let nominal = policy.repeatInterval.nominalLength {
            let estimate = Int((after - seriesStart).nanoseconds / nominal.nanoseconds) - 1
            if estimate > index {
                skippedByTime += estimate - index
                index = estimate
            }
        }
        var due: Timestamp
        var searchEnd: Timestamp?
        while true {
            let time = time(ofOccurrence: index, seriesStart: seriesStart, policy: policy)
            due = time
            var deferral: String?
            if let window = policy.enforcedWindow {
                // Windows repeat weekly: a series with no occurrence inside one for 8 days never will have.
                let limit = searchEnd ?? time + .seconds(8 * 86_400) + (policy.repeatInterval.nominalLength ?? .zero)
                searchEnd = limit
                if time > limit {
                    return .stops(
                        message:
                            "the series stops: no \(policy.repeatInterval) occurrence falls inside the delivery window (\(window)); widen the window or change the repeat"
                    )
                }
            }
            if let window = policy.enforcedWindow, !window.contains(time) {
                switch window.outsideWindow {
                case .defer:
                    due = window.nextOpening(atOrAfter: time)
                    deferral =
                        "deferred from \(time.rfc3339String) to \(due.rfc3339String): outside the delivery window (\(window))"
                case .drop:
                    if policy.repeatInterval == .off {
                        return .dropped(
                            at: time, message: "dropped: due \(time.rfc3339String), outside the delivery window (\(window))")
                    }
                    skippedByWindow += 1
                    index += 1
                    continue
                }
            }
            if let after, due <= after {
                skippedByTime += 1
                index += 1
                continue
            }
            if let deferral { messages.append(deferral) }
            if let passed = policy.passedWindowNote(at: due) { messages.append(passed) }
            break
        }
        if let after, skippedByTime > 0 {
            messages.append(
                "skipped \(skippedByTime) occurrence(s) due by \(after.rfc3339String) (missed, or merged into a deferred delivery)"
            )
        }
        if skippedByWindow > 0, let window = policy.window {
            messages.append("skipped \(skippedByWindow) occurrence(s) outside the delivery window (\(window))")
        }
        return .due(index: index, at: due, messages: messages)
    }

    /// When occurrence `index` of a series is due, before any window deferral: counted from the
    /// series start, in fixed spans (`minutely`, `hourly`) or local days (`daily`, `weekly`).
    static func time(ofOccurrence index: Int, seriesStart: Timestamp, policy: AlertPolicy) -> Timestamp {
        guard index > 0 else { return seriesStart }
        if let days = policy.repeatInterval.calendarDays {
            let clock = ZonedClock(timeZone: policy.window?.timeZone ?? TimeZone(secondsFromGMT: 0)!)
            let whole = seriesStart.wholeSeconds
            let fraction = seriesStart.nanosecondsSinceEpoch - whole * 1_000_000_000
            // Past the representable years (a series repeated for centuries) the time saturates.
            let (step, overflow) = Int64(index).multipliedReportingOverflow(by: days * 86_400)
            guard !overflow, step < 1 << 40 else { return .distantFuture }
            let local = clock.localSeconds(at: whole) + step
            return Timestamp(seconds: clock.earliestInstant(atOrAfterLocal: local), nanoseconds: fraction)
        }
        guard let span = policy.repeatInterval.nominalLength else { return seriesStart }
        let (step, overflow) = Int64(index).multipliedReportingOverflow(by: span.nanoseconds)
        return overflow ? .distantFuture : seriesStart.advanced(by: .nanoseconds(step))
    }
}
