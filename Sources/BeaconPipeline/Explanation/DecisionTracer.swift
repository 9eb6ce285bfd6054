import BeaconAlertEngine
import BeaconCore
import BeaconRanging
import BeaconStrategyKit

/// Follows alerts and beacons through a pipeline's decisions and writes their
/// ``DecisionTimeline``s: set it on ``AlertPipeline/decisionTracer`` before the run, read
/// ``timeline(alertID:beacon:)`` after (``finish()`` first).
///
/// **What it costs.** Nothing unless it is set: a pipeline without a tracer runs exactly as
/// before (one `nil` check per alert and cycle). Set, it asks the strategy for the followed
/// beacons' status after each cycle (`BeaconAlertStrategy.status(of:now:)`), compares it with
/// the previous cycle's and writes a line only when something changed — so a timeline holds
/// transitions, not cycles, and following one beacon through a day takes a few kilobytes.
/// Explanations are re-derived this way, by running the input again (`beacond explain`); a
/// live daemon keeps no trace.
///
/// Confined, like the pipeline, to the task that runs it.
public final class DecisionTracer {
    /// What it follows.
    public enum Scope: Hashable, Sendable {
        /// One alert for one beacon.
        case one(alertID: String, beacon: BeaconID)
        /// Every beacon each of these alerts sees (every alert when `nil`): for checks over many
        /// beacons at once.
        case every(alertIDs: Set<String>?)
    }

    /// The text of a ``DecisionTraceEntry/Kind/condition`` entry when the condition starts to hold.
    static let conditionHolds = "condition holds"
    /// The text of the ``DecisionTraceEntry/Kind/strategy`` entry when the strategy forgets the beacon.
    static let forgotten = "the strategy forgot the beacon (unseen beyond its retention)"

    /// What it follows.
    public let scope: Scope
    /// The end of the first cycle it saw (where offsets into the input count from).
    public private(set) var firstCycle: Timestamp?
    private var traces: [AlertKey: Follow] = [:]
    /// Per alert, the beacons whose state may still change (in `every` scope: those in ranging
    /// or remembered by the strategy; a beacon both forgot can change only by being heard again).
    private var active: [String: Set<BeaconID>] = [:]
    private var touched: Set<BeaconID> = []

    /// Follows `scope`.
    public init(_ scope: Scope) {
        self.scope = scope
        if case .one(let alertID, let beacon) = scope { active[alertID] = [beacon] }
    }

    /// The timeline of `alertID` for `beacon`, if it was followed.
    public func timeline(alertID: String, beacon: BeaconID) -> DecisionTimeline? {
        traces[AlertKey(alertID: alertID, beacon: beacon)]?.timeline
    }

    /// Every timeline written, by alert and beacon.
    public var timelines: [AlertKey: DecisionTimeline] { traces.mapValues(\.timeline) }

    /// Ends the run: records each stretch's progress still open.
    public func finish() {
        for trace in traces.values {
            trace.release()
            trace.closeProgress()
        }
    }

    // MARK: What the pipeline calls

    /// Whether any beacon of `alertID` is followed.
    func follows(alertID: String) -> Bool {
        switch scope {
        case .one(let followed, _): followed == alertID
        case .every(let alertIDs): alertIDs?.contains(alertID) ?? true
        }
    }

    /// After `strategy` evaluated `update` for `alert`: the followed beacons' evidence and status.
    func observe(_ update: RangingUpdate, alert: PipelineAlert, strategy: any BeaconAlertStrategy) {
        let now = update.time
        if firstCycle == nil { firstCycle = now }
        switch scope {
        case .one(_, let beacon):
            let ranged = update.beacons.first { $0.id == beacon }
            step(
                AlertKey(alertID: alert.id, beacon: beacon), matched: alert.match.matches(beacon),
                evidence: ranged.map(DecisionEvidence.init) ?? .absent, strategy: strategy, now: now)
        case .every:
            touched.removeAll(keepingCapacity: true)
            var active = self.active.removeValue(forKey: alert.id) ?? []
            for beacon in update.beacons where alert.match.matches(beacon.id) {
                active.insert(beacon.id)
                touched.insert(beacon.id)
                step(
                    AlertKey(alertID: alert.id, beacon: beacon.id), matched: true, evidence: DecisionEvidence(beacon),
                    strategy: strategy, now: now)
            }
            for beacon in active where !touched.contains(beacon) {
                let trace = step(
                    AlertKey(alertID: alert.id, beacon: beacon), matched: true, evidence: .absent, strategy: strategy,
                    now: now)
                if trace.status == nil { active.remove(beacon) }
            }
            self.active[alert.id] = active
        }
    }

    /// A strategy fired for a followed key; `obstacle` is what the engine's firing rules say of it.
    func noteFiring(_ firing: StrategyFiring, obstacle: FiringObstacle?) {
        traces[AlertKey(alertID: firing.alertID, beacon: firing.beacon)]?.fire(at: firing.time, obstacle: obstacle)
    }

    /// Whether the firing's key is followed.
    func follows(_ firing: StrategyFiring) -> Bool {
        traces[AlertKey(alertID: firing.alertID, beacon: firing.beacon)] != nil
    }

    /// The engine's events of an input (before they are emitted).
    func observe(_ events: [RoutedEvent]) {
        for routed in events {
            let key = AlertKey(alertID: routed.event.alertID, beacon: routed.event.beacon)
            traces[key]?.take(routed.event)
        }
    }

    @discardableResult
    private func step(
        _ key: AlertKey, matched: Bool, evidence: DecisionEvidence, strategy: any BeaconAlertStrategy, now: Timestamp
    ) -> Follow {
        let trace: Follow
        if let known = traces[key] {
            trace = known
        } else {
            trace = Follow(timeline: DecisionTimeline(alertID: key.alertID, beacon: key.beacon, matched: matched))
            traces[key] = trace
        }
        trace.step(evidence: evidence, status: matched ? strategy.status(of: key.beacon, now: now) : nil, now: now)
        return trace
    }
}

/// One followed alert and beacon: its timeline and what the last cycle showed. A class: its
/// timeline grows in place.
private final class Follow {
    var timeline: DecisionTimeline
    var evidence = DecisionEvidence.absent
    var everHeard = false
    var status: StrategyBeaconStatus?
    /// The strategy's latest words (kept when it forgets a beacon ranging still hears: it
    /// remembers it again at once, usually saying the same).
    var explanation: String?
    var progress: StrategyProgress?
    var peak: (time: Timestamp, progress: StrategyProgress)?
    /// The action status before the latest cycle's step.
    var actionBeforeCycle = ActionStatus.waitingForAction

    // Short misses — a beacon unheard for a cycle or a few, within ranging's grace, then heard
    // again with the strategy saying what it said before — are folded into one line: a far
    // beacon misses a cycle in two, and four lines each would bury everything else.
    /// Whether the lines of a miss in progress are held back.
    var holding = false
    /// The lines held back since the miss began.
    var held: [DecisionTraceEntry] = []
    /// The strategy's words when the miss began.
    var explanationBeforeMiss: String?
    /// The misses folded so far, not yet written.
    var misses: (from: Timestamp, to: Timestamp, count: Int, untracked: Int, evidence: DecisionEvidence)?

    init(timeline: DecisionTimeline) { self.timeline = timeline }

    func add(_ kind: DecisionTraceEntry.Kind, _ text: String, at time: Timestamp) {
        let entry = DecisionTraceEntry(time: time, kind: kind, text: text, evidence: evidence)
        if holding, kind == .strategy || kind == .unheard {
            held.append(entry)
            return
        }
        release()
        insert(entry)
    }

    private func insert(_ entry: DecisionTraceEntry) {
        // Events of catch-up deliveries come at their own (earlier) times: keep the order.
        var index = timeline.entries.endIndex
        while index > timeline.entries.startIndex, timeline.entries[index - 1].time > entry.time { index -= 1 }
        timeline.entries.insert(entry, at: index)
    }

    /// Writes the folded misses and the lines held back: something else happened.
    func release() {
        if let misses {
            var text =
                misses.count == 1
                ? "missed a cycle or a few, heard again at \(misses.to.timeOfDayString); the strategy went on as before"
                : "missed \(misses.count) short stretches until \(misses.to.timeOfDayString), each heard again; the strategy went on as before"
            if misses.untracked > 0 {
                text +=
                    "; \(misses.untracked == misses.count ? "each" : "\(misses.untracked) of them") long enough for ranging to stop tracking it (an advertising interval longer than ranging's timeout?)"
            }
            insert(DecisionTraceEntry(time: misses.from, kind: .unheard, text: text, evidence: misses.evidence))
            self.misses = nil
        }
        for entry in held { insert(entry) }
        held.removeAll()
        holding = false
    }

    func step(evidence new: DecisionEvidence, status newStatus: StrategyBeaconStatus?, now: Timestamp) {
        let old = evidence
        evidence = new
        var healed = false
        if new.heard != old.heard || new.inRanging != old.inRanging {
            if new.heard, holding {
                // Heard again after a short miss: held with it, folded below if nothing else changed.
                held.append(DecisionTraceEntry(time: now, kind: .heard, text: "heard again: \(new.summary)", evidence: new))
                healed = true
            } else if new.heard {
                add(.heard, everHeard ? "heard again: \(new.summary)" : "heard: \(new.summary)", at: now)
                everHeard = true
            } else if new.inRanging {
                if old.heard, !holding {
                    holding = true
                    explanationBeforeMiss = explanation
                }
                add(.unheard, "not heard this cycle (ranging keeps it through its grace)", at: now)
            } else if old.inRanging {
                add(.unheard, "ranging stopped tracking it (unheard beyond its timeout)", at: now)
            }
        } else if new.heard {
            // On a site the room is what matters; the proximity to the nearest gateway flickers.
            if new.proximity != old.proximity, new.room == nil, !new.roomUnknown {
                add(.moved, "proximity \(old.proximity.name) → \(new.proximity.name): \(new.summary)", at: now)
            }
            if new.room != old.room || new.roomUnknown != old.roomUnknown {
                add(.moved, "room \(old.roomText ?? "none") → \(new.roomText ?? "none")", at: now)
            }
        }
        step(status: newStatus, now: now)
        if healed, holding {
            if explanation == explanationBeforeMiss, let first = held.first {
                let untracked = held.contains { !$0.evidence.inRanging } ? 1 : 0
                misses = (
                    misses?.from ?? first.time, now, (misses?.count ?? 0) + 1, (misses?.untracked ?? 0) + untracked,
                    misses?.evidence ?? first.evidence
                )
                held.removeAll()
                holding = false
            } else {
                release()
            }
        }
    }

    private func step(status new: StrategyBeaconStatus?, now: Timestamp) {
        let old = status
        status = new
        actionBeforeCycle = old?.actionStatus ?? .waitingForAction
        timeline.lastStatus = new
        guard let new else {
            if old != nil {
                if !evidence.inRanging {
                    add(.strategy, DecisionTracer.forgotten, at: now)
                    explanation = nil
                }
                closeProgress()
                progress = nil
            }
            return
        }
        if let text = new.explanation, text != explanation {
            add(.strategy, text, at: now)
            explanation = text
        }
        if new.conditionValid != (old?.conditionValid ?? false) {
            let how = new.progress.map { ": " + DecisionTimeline.format($0) } ?? ""
            add(.condition, new.conditionValid ? DecisionTracer.conditionHolds + how : "condition no longer holds", at: now)
        }
        let oldAction = old?.actionStatus ?? .waitingForAction
        if new.actionStatus != oldAction, new.actionStatus == .waitingForAction {
            if let resetsAt = old?.resetsAt, now >= resetsAt, let lastSeen = old?.lastSeen {
                add(
                    .reset,
                    "action reset: unseen since \(lastSeen.timeOfDayString) for maxTimeBeforeReset (\((resetsAt - lastSeen).humanReadable))",
                    at: now)
            } else {
                add(.reset, "action reset: the condition no longer holds (resetWhenConditionInvalid)", at: now)
            }
        }
        if let current = new.progress {
            if let last = progress, current.value < last.value { closeProgress() }
            if peak == nil || current.value > peak!.progress.value { peak = (now, current) }
            progress = current
        }
    }

    /// The strategy fired (the engine's firing rules say `obstacle`): after a reset within the
    /// same cycle when its action was done before it.
    func fire(at time: Timestamp, obstacle: FiringObstacle?) {
        if actionBeforeCycle == .actionDone {
            add(.reset, "action reset (unseen for maxTimeBeforeReset, or the condition gone) within the cycle", at: time)
        }
        actionBeforeCycle = .actionDone
        add(.fired, "fired: the strategy's action is done until it resets", at: time)
        if let obstacle { add(.ignored, obstacle.description, at: time) }
    }

    /// Records the open stretch's highest progress.
    func closeProgress() {
        if let peak { timeline.progressPeaks.append(peak) }
        peak = nil
    }

    func take(_ event: AlertEvent) {
        timeline.events.append(event)
        var text = event.kind.rawValue
        if event.attempt > 0 { text += " (reminder \(event.attempt))" }
        if event.kind == .created, let due = event.scheduledFor { text += ": due \(due.timeOfDayString)" }
        if let by = event.answeredBy { text += " by \(by)" }
        if !event.messages.isEmpty { text += ": " + event.messages.joined(separator: "; ") }
        add(.event, text, at: event.time)
    }
}
