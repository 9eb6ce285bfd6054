import BeaconCore
import BeaconStrategyKit

/// The decision trace of one alert for one beacon: a timeline of what changed — ranging's
/// evidence, the strategy's state, each firing and what the engine made of it, the engine's
/// events — from which ``verdict(from:through:)`` tells whether the alert was delivered, and if
/// not, what stood in the way. ``DecisionTracer`` builds it while a pipeline runs.
public struct DecisionTimeline: Sendable {
    /// The alert.
    public let alertID: String
    /// The beacon.
    public let beacon: BeaconID
    /// Whether the alert's match includes the beacon (an alert never sees one it does not match).
    public let matched: Bool
    /// What changed, in order.
    public internal(set) var entries: [DecisionTraceEntry] = []
    /// The engine's events for the alert and beacon, in order.
    public internal(set) var events: [AlertEvent] = []
    /// The highest progress of each stretch towards the condition (recorded when progress falls
    /// back, and at the end), with when it was reached.
    public internal(set) var progressPeaks: [(time: Timestamp, progress: StrategyProgress)] = []
    /// The strategy's last status of the beacon (`nil` when it does not remember it).
    public internal(set) var lastStatus: StrategyBeaconStatus?

    /// An empty timeline.
    public init(alertID: String, beacon: BeaconID, matched: Bool) {
        self.alertID = alertID
        self.beacon = beacon
        self.matched = matched
    }

    /// The entries between `from` and `through` (inclusive; `nil`: unbounded).
    public func entries(from: Timestamp? = nil, through: Timestamp? = nil) -> ArraySlice<DecisionTraceEntry> {
        let start = from.map { time in entries.firstIndex { $0.time >= time } ?? entries.endIndex } ?? entries.startIndex
        let end = through.map { time in entries.firstIndex { $0.time > time } ?? entries.endIndex } ?? entries.endIndex
        return entries[start..<max(start, end)]
    }

    /// Whether the alert was delivered between `from` and `through` and when; if not, the
    /// furthest the decision got and what stopped it there — in the order a decision goes:
    /// heard, condition, firing (the action not already done), the engine's firing rules,
    /// scheduling, delivery.
    public func verdict(from: Timestamp? = nil, through: Timestamp? = nil) -> DecisionVerdict {
        func inRange(_ time: Timestamp) -> Bool {
            (from.map { time >= $0 } ?? true) && (through.map { time <= $0 } ?? true)
        }
        let events = events.filter { inRange($0.time) }
        let deliveries = events.filter { $0.kind == .delivered && $0.attempt == 0 }.map(\.time)
        if !deliveries.isEmpty { return DecisionVerdict(deliveries: deliveries, obstacle: nil) }
        return DecisionVerdict(
            deliveries: [], obstacle: obstacle(events: events, entries: entries(from: from, through: through), through: through))
    }

    private func obstacle(events: [AlertEvent], entries: ArraySlice<DecisionTraceEntry>, through: Timestamp?) -> String {
        guard matched else { return "the alert's match does not include this beacon: its strategy never sees it" }
        if let created = events.last(where: { $0.kind == .created }) {
            let due = created.scheduledFor.map { " for \($0.timeOfDayString)" } ?? ""
            if let ended = events.last(where: { ($0.kind == .cancelled || $0.kind == .error) && $0.time >= created.time }) {
                let why = ended.messages.isEmpty ? "" : ": " + ended.messages.joined(separator: "; ")
                return
                    "scheduled at \(created.time.timeOfDayString)\(due), then \(ended.kind.rawValue) at \(ended.time.timeOfDayString)\(why)"
            }
            return
                "scheduled at \(created.time.timeOfDayString)\(due); not delivered by \(through.map(\.timeOfDayString) ?? "the end")"
        }
        if let refused = events.first(where: { $0.kind == .cancelled || $0.kind == .error }) {
            let why = refused.messages.isEmpty ? "" : ": " + refused.messages.joined(separator: "; ")
            return
                "the strategy fired at \(refused.time.timeOfDayString), and the engine \(refused.kind == .error ? "failed" : "did not schedule it")\(why)"
        }
        if let ignored = entries.first(where: { $0.kind == .ignored }) {
            return "the strategy fired at \(ignored.time.timeOfDayString), and the engine \(ignored.text)"
        }
        if let held = entries.first(where: { $0.kind == .condition && $0.text.hasPrefix(DecisionTracer.conditionHolds) }) {
            return
                "the condition held at \(held.time.timeOfDayString), but the strategy's action was already done (it had fired, and had not been reset since: unseen for maxTimeBeforeReset, or resetWhenConditionInvalid)"
        }
        if let heard = entries.first(where: { $0.kind == .heard }) {
            var text = "heard from \(heard.time.timeOfDayString), but the condition never held"
            let peaks = progressPeaks.filter { peak in through.map { peak.time <= $0 } ?? true }
            if let best = peaks.max(by: { $0.progress.fraction < $1.progress.fraction }), best.progress.value > 0 {
                text += ": closest \(Self.format(best.progress)) at \(best.time.timeOfDayString)"
            }
            if let words = entries.last(where: { $0.kind == .strategy && $0.text != DecisionTracer.forgotten }) {
                text += "; the strategy said last: \(words.text)"
            }
            return text
        }
        return "never heard\(through.map { " by \($0.timeOfDayString)" } ?? "")"
    }

    /// A progress in words: `42 of 60 s`.
    public static func format(_ progress: StrategyProgress) -> String {
        func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String((value * 10).rounded() / 10)
        }
        return "\(number(progress.value)) of \(number(progress.threshold)) \(progress.unit)"
    }
}
