import BeaconAlertEngine
import BeaconCore
import BeaconDaemonConfiguration
import BeaconPipeline
import BeaconSinks
import BeaconSite
import BeaconSiteLink
import BeaconSiteReport
import Logging

/// What a hub does after each fused cycle, besides its strategies: a lifecycle event to every
/// sink when a gateway goes offline or comes back (through the outbox, in the same transaction as
/// the cycle's alerts: `AlertPipeline.post(_:)`; delivered at least once), its
/// presence lines (`hub.presence`), and its calibrated model kept across restarts
/// (`hub.calibration.file`).
func hubCycleObservers(
    _ pipeline: AlertPipeline, hub: HubSettings, statePath: String?, sinks: [String],
    presenceRetention: Duration?, logger: Logger
) throws(GatewayError) -> [(RangingUpdate, SiteCycleFacts) -> Void] {
    var observers: [(RangingUpdate, SiteCycleFacts) -> Void] = []
    // A gateway that goes offline or comes back: a lifecycle event to every sink, through
    // the outbox with the cycle's alerts (delivered at least once).
    if !sinks.isEmpty {
        let rooms = Dictionary(
            hub.layout.gateways.map { ($0.id, $0.room) }, uniquingKeysWith: { a, _ in a })
        observers.append { [unowned pipeline] _, facts in
            let changes = facts.gatewayChanges
            guard !changes.isEmpty else { return }
            // Written with the cycle's alerts, in the same transaction.
            pipeline.post(
                changes.map { change in
                    let event = GatewayStatusNotice.event(for: change, room: rooms[change.gateway] ?? nil)
                    return OutboundNotice(key: event.key, body: event.body, sinks: sinks)
                })
            for change in changes {
                logger.log(
                    level: change.online ? .notice : .warning,
                    "site: gateway '\(change.gateway)' is \(change.online ? "online again" : "offline")")
            }
        }
    }
    if let path = hub.presencePath {
        // A hub's presence lines: every fused beacon, every cycle, flushed with the cycle; a new
        // part every half of `retention.presence`.
        let file: PresenceFile
        do {
            file = try PresenceFile(path: path, retention: presenceRetention)
        } catch {
            throw .source("hub.presence: cannot create \(path) (\(error)); check the directory exists and is writable")
        }
        observers.append { [unowned pipeline] update, facts in
            if let failure = file.rotateIfDue(at: update.time) {
                logger.error(
                    "hub.presence: \(failure); the lines go on to the current file, and the rotation is tried again in half of retention.presence"
                )
            }
            PresenceLine.write(update, facts: facts, named: pipeline.beacons, to: file.write)
            file.flush()
        }
    }
    if let path = hub.calibrationFile(statePath: statePath), pipeline.siteCalibration != nil {
        let keeper = CalibrationKeeper(hub: pipeline, file: CalibrationFile(path: path), logger: logger)
        keeper.takeUp()
        observers.append { _, facts in keeper.saveAfterFit(facts.calibration) }
    }
    return observers
}
