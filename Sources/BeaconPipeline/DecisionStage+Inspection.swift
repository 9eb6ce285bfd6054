import BeaconAlertEngine
import BeaconCore
import BeaconDevices
import BeaconStrategyKit

extension DecisionStage {
    /// Adds the decision stage's part to `inspection` — its clock, each alert's strategy state,
    /// the engine's waiting alerts and the beacons in cooldown — as of the pipeline's `latestTime`.
    func contribute(to inspection: inout PipelineInspection, latestTime: Timestamp?) {
        inspection.cycleTime = decidedThrough
        inspection.people = people?.places ?? []
        let now = decidedThrough ?? latestTime ?? .epoch
        inspection.alerts = alerts.map { alert in
            var statuses: [StrategyBeaconStatus] = []
            alert.strategy.collectStatuses(now: now, into: &statuses)
            return PipelineInspection.Alert(
                definition: alert.definition, statuses: statuses,
                reportsStatus: alert.strategy.reportsStatuses)
        }
        inspection.waiting = engine.pending.map { pending in
            let instance =
                pending.attempt > 0
                ? engine.state.history[pending.key]?.instanceDue.map { AlertInstance(key: pending.key, due: $0) } : nil
            return PipelineInspection.WaitingAlert(
                key: pending.key, reason: .init(pending, now: latestTime), until: pending.deadline,
                firedAt: pending.firedAt, occurrence: pending.occurrence, instance: instance, attempt: pending.attempt,
                due: pending.attempt == 0 ? pending.dueAt : nil)
        }
        for (key, until) in engine.suppressions(at: now) {
            inspection.waiting.append(.init(key: key, reason: .suppressed, until: until))
        }
        let cooldowns = Dictionary(
            alerts.compactMap { alert in alert.definition.rule.policy.cooldown.map { (alert.definition.id, $0) } },
            uniquingKeysWith: { first, _ in first })
        guard !cooldowns.isEmpty else { return }
        for history in engine.state.history.values {
            guard let cooldown = cooldowns[history.key.alertID], let delivered = history.lastDeliveredAt,
                delivered + cooldown > now
            else { continue }
            inspection.waiting.append(.init(key: history.key, reason: .cooldown, until: delivered + cooldown))
        }
    }
}
