import BeaconCore

/// Why the engine ignores a strategy's firing before scheduling anything: the firing rules of
/// the alert's policy against what the engine remembers of the alert and beacon. Ignored
/// firings emit no event; ``AlertEngine/obstacle(to:)`` tells them, for explanations.
public enum FiringObstacle: Hashable, Sendable, CustomStringConvertible {
    /// `firing: first`: only the first accepted firing counts, and it happened.
    case firstOnly(firstFiringAt: Timestamp)
    /// `firing: once-per-beacon`: the alert was delivered for the beacon already.
    case oncePerBeacon(deliveries: Int)
    /// `cooldown`: the last delivery was too recent.
    case coolingDown(lastDelivered: Timestamp, until: Timestamp)
    /// A dismissal suppressed the alert for the beacon.
    case suppressed(until: Timestamp)
    /// `firstStart: quiet`: the beacon was in range when the alert first started, and has not
    /// gone since.
    case quietAtFirstStart

    /// The rule and what it remembers, in words.
    public var description: String {
        switch self {
        case .firstOnly(let at):
            "ignored: firing is 'first' and the first firing was at \(at.rfc3339String)"
        case .oncePerBeacon(let deliveries):
            "ignored: firing is 'once-per-beacon' and it was delivered \(deliveries == 1 ? "once" : "\(deliveries) times") already"
        case .coolingDown(let last, let until):
            "ignored: cooldown after the delivery at \(last.rfc3339String), until \(until.rfc3339String)"
        case .suppressed(let until):
            until == .distantFuture
                ? "ignored: dismissed and suppressed for this beacon for good"
                : "ignored: dismissed and suppressed for this beacon until \(until.rfc3339String)"
        case .quietAtFirstStart:
            "ignored: the beacon was in range when the alert first started (firstStart: quiet); its next visit alerts"
        }
    }
}

extension AlertPolicy {
    /// What keeps a firing at `time` from being scheduled, given the alert and beacon's
    /// `history` (a `critical` alert passes the cooldown and a suppression); `nil` when nothing does (the engine then schedules it, unless its
    /// `scheduleCondition` fails, which emits a `cancelled` event).
    public func obstacle(toFiringAt time: Timestamp, history: AlertHistory) -> FiringObstacle? {
        if history.quietUntilGone { return .quietAtFirstStart }
        switch firing {
        case .first: if let first = history.firstFiringAt { return .firstOnly(firstFiringAt: first) }
        case .oncePerBeacon: if history.deliveries > 0 { return .oncePerBeacon(deliveries: history.deliveries) }
        case .everyActivation: break
        }
        if priority.passesCooldownAndSuppression { return nil }
        return passableObstacle(toFiringAt: time, history: history)
    }

    /// What a firing at `time` of a `critical` alert passes that would hold any other back (its
    /// cooldown, its suppression), in the words its events carry; empty for other priorities.
    func passedObstacleNotes(firingAt time: Timestamp, history: AlertHistory) -> [String] {
        guard priority.passesCooldownAndSuppression else { return [] }
        var notes: [String] = []
        if let cooldown, let last = history.lastDeliveredAt, time < last + cooldown {
            notes.append(
                "\(priority): passed the cooldown (delivered at \(last.rfc3339String), cooling down until \((last + cooldown).rfc3339String))"
            )
        }
        if let until = history.suppressedUntil, time < until {
            let end = until == .distantFuture ? "for good" : "until \(until.rfc3339String)"
            notes.append("\(priority): passed the suppression (dismissed and suppressed for this beacon \(end))")
        }
        return notes
    }

    /// The cooldown or suppression that holds a firing at `time` back, whatever the priority:
    /// what a `critical` alert passes (and its events name).
    func passableObstacle(toFiringAt time: Timestamp, history: AlertHistory) -> FiringObstacle? {
        if let cooldown, let last = history.lastDeliveredAt, time < last + cooldown {
            return .coolingDown(lastDelivered: last, until: last + cooldown)
        }
        if let until = history.suppressedUntil, time < until { return .suppressed(until: until) }
        return nil
    }
}
