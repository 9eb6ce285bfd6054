import BeaconCore
import Foundation

extension EngineStep {
    /// Schedules occurrence `occurrence` of a series — or, when `after` is given (a renewal),
    /// the first occurrence due strictly after it — applying the window. Delivers at once what
    /// is due by `now`. Returns `false` only when the pending cap refused it (an `error` event).
    /// `notes` lead the events' messages. An alert whose priority passes its delivery window is
    /// scheduled as if it had none, and its events say when the window was closed.
    @discardableResult
    mutating func schedule(
        key: AlertKey, rule: AlertRule, strategy: String, firedAt: Timestamp, seriesStart: Timestamp,
        occurrence: Int, after: Timestamp?, now: Timestamp, notes: [String] = []
    ) -> Bool {
        let policy = rule.policy
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
            let time = occurrenceTime(seriesStart: seriesStart, index: index, policy: policy)
            due = time
            var deferral: String?
            if let window = policy.enforcedWindow {
                // Windows repeat weekly: a series with no occurrence inside one for 8 days never will have.
                let limit = searchEnd ?? time + .seconds(8 * 86_400) + (policy.repeatInterval.nominalLength ?? .zero)
                searchEnd = limit
                if time > limit {
                    emit(
                        .error, key: key, strategy: strategy, rule: rule, now: now, scheduledFor: nil,
                        messages: [
                            "the series stops: no \(policy.repeatInterval) occurrence falls inside the delivery window (\(window)); widen the window or change the repeat"
                        ])
                    return true
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
                        emit(
                            .cancelled, key: key, strategy: strategy, rule: rule, now: now, scheduledFor: time,
                            messages: ["dropped: due \(time.rfc3339String), outside the delivery window (\(window))"])
                        return true
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
        let alert = PendingAlert(
            key: key, strategy: strategy, firedAt: firedAt, seriesStart: seriesStart,
            occurrence: index, dueAt: due)
        if due <= now {
            emit(.created, key: key, strategy: strategy, rule: rule, now: now, scheduledFor: due, messages: messages)
            deliver(alert, rule: rule, now: now, notes: notes)
            return true
        }
        guard state.pending.count < configuration.maxPending else {
            emit(
                .error, key: key, strategy: strategy, rule: rule, now: now, scheduledFor: due,
                messages: messages + [
                    "not scheduled: \(configuration.maxPending) alerts are already pending (maxPending); raise maxPending, shorten delays or cancel sooner"
                ])
            return false
        }
        record(.putPending(alert))
        emit(.created, key: key, strategy: strategy, rule: rule, now: now, scheduledFor: due, messages: messages)
        return true
    }

    /// When occurrence `index` of a series is due, before any window deferral: counted from the
    /// series start, in fixed spans (`minutely`, `hourly`) or local days (`daily`, `weekly`).
    func occurrenceTime(seriesStart: Timestamp, index: Int, policy: AlertPolicy) -> Timestamp {
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
