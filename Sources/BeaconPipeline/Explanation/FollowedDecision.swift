import BeaconAlertEngine
import BeaconCore
import BeaconStrategyKit

/// One followed alert and beacon: its timeline and what the last cycle showed. A class: its
/// timeline grows in place.
final class FollowedDecision {
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
