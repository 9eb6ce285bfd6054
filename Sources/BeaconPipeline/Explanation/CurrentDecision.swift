import BeaconAlertEngine
import BeaconCore
import BeaconStrategyKit

/// Where one alert stands for one beacon right now, on a running gateway or hub — the live
/// counterpart of a ``DecisionTimeline``, read from a ``PipelineInspection`` (taken on demand,
/// never per cycle) and the alert's recent events: what ranging says of the beacon, the
/// strategy's state in its own words, what the engine holds for it, and one line of why.
///
/// A running daemon keeps no trace: the history of *how* it got there is re-derived offline
/// (`beacond explain` on a recording of the same input).
public struct CurrentDecision: Sendable {
    /// The alert.
    public var alertID: String
    /// The beacon.
    public var beacon: BeaconID
    /// Whether the alert's match includes the beacon.
    public var matched: Bool
    /// What ranging says of it now.
    public var evidence: DecisionEvidence
    /// The strategy's status of it (`nil`: it does not remember the beacon, or reports no state).
    public var status: StrategyBeaconStatus?
    /// What the engine holds for the alert and beacon (waiting, reminders, cooldown, suppression).
    public var waiting: [PipelineInspection.WaitingAlert]
    /// The alert's recent events for the beacon, oldest first.
    public var events: [AlertEvent]
    /// Why, in one line.
    public var why: String

    /// Where `alertID` stands for `beacon` in `inspection`; `recentEvents` are the alert log's
    /// events (any alert and beacon: those of the pair are kept). `nil` for an unknown alert.
    public init?(alertID: String, beacon: BeaconID, in inspection: PipelineInspection, recentEvents: [AlertEvent]) {
        guard let alert = inspection.alerts.first(where: { $0.definition.id == alertID }) else { return nil }
        let now = inspection.cycleTime ?? inspection.time ?? .epoch
        self.alertID = alertID
        self.beacon = beacon
        matched = alert.definition.match.matches(beacon)
        evidence = inspection.beacons.first { $0.id == beacon }.map(DecisionEvidence.init) ?? .absent
        status = alert.statuses.first { $0.beacon == beacon }
        waiting = inspection.waiting.filter { $0.key.alertID == alertID && $0.key.beacon == beacon }
        events = recentEvents.filter { $0.alertID == alertID && $0.beacon == beacon }
        why = Self.why(
            matched: matched, evidence: evidence, status: status, reportsStatus: alert.reportsStatus, waiting: waiting,
            events: events, firing: alert.definition.rule.policy.firing, now: now)
    }

    /// A strategy row's why: its own words, or what its bookkeeping says.
    public static func why(_ status: StrategyBeaconStatus, now: Timestamp) -> String {
        var parts: [String] = []
        if status.actionStatus == .actionDone {
            parts.append(
                "fired; fires again once reset"
                    + (status.resetsAt.map { ": unseen until \($0.timeOfDayString) (maxTimeBeforeReset)" } ?? ""))
        } else if status.conditionValid {
            parts.append("condition holds")
        }
        if let explanation = status.explanation { parts.append(explanation) }
        if status.actionStatus != .actionDone, !status.conditionValid, let progress = status.progress {
            parts.append(DecisionTimeline.format(progress))
        }
        return parts.isEmpty ? "condition not met" : parts.joined(separator: "; ")
    }

    /// A waiting alert's why, in words.
    public static func why(_ waiting: PipelineInspection.WaitingAlert) -> String {
        let until = waiting.until.timeOfDayString
        switch waiting.reason {
        case .delay: return "delayed (delay / notBefore) until \(until)"
        case .window: return "outside its delivery window: deferred to its opening at \(until)"
        case .repeat: return "delivered; the next repeat is due at \(until)"
        case .cooldown: return "delivered lately: firings are ignored until \(until) (cooldown)"
        case .due: return "due: delivered at the next input"
        case .reminder: return "delivered and not answered: reminder \(waiting.attempt) is due at \(until)"
        case .condition: return "due, held until its deliverWhen condition holds (at most until \(until))"
        case .suppressed:
            return waiting.until == .distantFuture
                ? "dismissed and suppressed for good" : "dismissed and suppressed until \(until)"
        }
    }

    private static func why(
        matched: Bool, evidence: DecisionEvidence, status: StrategyBeaconStatus?, reportsStatus: Bool,
        waiting: [PipelineInspection.WaitingAlert], events: [AlertEvent], firing: FiringMode, now: Timestamp
    ) -> String {
        guard matched else { return "the alert's match does not include this beacon: its strategy never sees it" }
        if let first = waiting.first { return why(first) }
        if firing != .everyActivation, let delivered = events.last(where: { $0.kind == .delivered && $0.attempt == 0 }) {
            return "delivered at \(delivered.time.timeOfDayString); firing is '\(firing)': later firings are ignored"
        }
        if let status { return why(status, now: now) }
        if !evidence.inRanging { return "not heard: ranging does not track it" }
        return reportsStatus ? "the strategy does not remember it yet" : "heard; this strategy does not report its state"
    }
}
