import BeaconAlertEngine
import BeaconCore
import BeaconSite
import BeaconSiteReport
import BeaconStrategyKit

extension AlertPipeline {
    /// Looks at the pipeline as it stands between two inputs (see ``PipelineInspection``):
    /// nothing is changed, nothing is done for it until it is asked.
    public func inspect() -> PipelineInspection {
        var inspection = PipelineInspection()
        inspection.time = latestTime
        inspection.cycleTime = decidedThrough
        inspection.statistics = statistics
        inspection.trackedBeacons = trackedBeacons
        let now = decidedThrough ?? latestTime ?? .epoch
        if let site {
            inspection.site = site.layout
            inspection.beacons = site.latestUpdate.beacons
            inspection.gatewayRSSI = inspection.beacons.map { beacon in
                var evidence: [PipelineInspection.GatewayRSSI] = []
                site.forEachEvidence(of: beacon.id) { index, rssi in
                    evidence.append(.init(gateway: site.layout.gateways[index].id, rssi: rssi))
                }
                return evidence
            }
        } else {
            inspection.beacons = rangingUpdate.beacons
        }
        inspection.alerts = alerts.map { alert in
            var statuses: [StrategyBeaconStatus] = []
            alert.strategy.collectStatuses(now: now, into: &statuses)
            return PipelineInspection.Alert(
                definition: alert.definition, statuses: statuses,
                reportsStatus: alert.strategy.reportsStatuses)
        }
        inspection.waiting = engine.pending.map { pending in
            PipelineInspection.WaitingAlert(
                key: pending.key, reason: .init(pending, now: latestTime), until: pending.dueAt,
                firedAt: pending.firedAt, occurrence: pending.occurrence)
        }
        let cooldowns = Dictionary(
            alerts.compactMap { alert in alert.definition.rule.policy.cooldown.map { (alert.definition.id, $0) } },
            uniquingKeysWith: { first, _ in first })
        if !cooldowns.isEmpty {
            for history in engine.state.history.values {
                guard let cooldown = cooldowns[history.key.alertID], let delivered = history.lastDeliveredAt,
                    delivered + cooldown > now
                else { continue }
                inspection.waiting.append(.init(key: history.key, reason: .cooldown, until: delivered + cooldown))
            }
        }
        return inspection
    }
}
