import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import BeaconStrategyKit

/// `GET /api/explain?alert=ID&beacon=ID`: where one alert stands for one beacon now, and
/// why (``CurrentDecision``): ranging's evidence, the strategy's state in its own words, what
/// the engine holds, the recent events of the pair. `404` for an alert the daemon does not
/// have. The history of how it got there is `beacond explain`'s, offline.
enum ExplainEndpoint: StatusAPIEndpoint {
    /// Which alert and beacon.
    struct Query: StatusAPIQuery {
        /// The alert definition's id.
        var alert: String
        /// The beacon.
        var beacon: BeaconID

        init(_ query: StatusQuery) throws(StatusQueryError) {
            let form = "ibeacon:UUID:major:minor (or altbeacon:…, eddystone-uid:…)"
            guard let alert = query.text("alert") else {
                throw StatusQueryError("give the alert and the beacon: ?alert=ID&beacon=\(form)")
            }
            guard let text = query.text("beacon") else { throw StatusQueryError("give the beacon as &beacon=\(form)") }
            guard let beacon = BeaconID(text) else {
                throw StatusQueryError("beacon=\(text) is not a beacon: give it as \(form)")
            }
            self.alert = alert
            self.beacon = beacon
        }
    }

    static let path = "/api/explain"

    static func missing(in snapshot: StatusBoard.Snapshot, query: Query) -> String? {
        let alerts = snapshot.inspection.alerts.map(\.definition.id)
        guard !alerts.contains(query.alert) else { return nil }
        return "no alert '\(query.alert)'; the alerts: \(alerts.joined(separator: ", "))"
    }

    static func document(_ snapshot: StatusBoard.Snapshot, query: Query, routes: StatusRoutes) -> String {
        let recent = routes.board.log.entries().map(\.event)
        let decision = CurrentDecision(
            alertID: query.alert, beacon: query.beacon, in: snapshot.inspection, recentEvents: recent)
        var json = JSONWriter()
        json.object { object in
            StatusAPI.header(&object, snapshot)
            object.member("alert", query.alert)
            object.member("beacon", "\(query.beacon)")
            guard let decision else { return }
            object.member("why", decision.why)
            object.member("matched", decision.matched)
            object.key("evidence")
            object.object { evidence in
                let seen = decision.evidence
                evidence.member("inRanging", seen.inRanging)
                evidence.member("heard", seen.heard)
                evidence.member("summary", seen.summary)
                evidence.member("rssi", seen.filteredRSSI.map { StatusAPI.rounded($0, 1) })
                evidence.member("distance", seen.distance.map { StatusAPI.rounded($0, 2) })
                evidence.member("proximity", seen.proximity.name)
                evidence.member("room", seen.roomUnknown ? "unknown" : seen.room)
            }
            object.key("strategy")
            if let status = decision.status {
                object.object { strategy in
                    strategy.member("status", status.actionStatus == .actionDone ? "actionDone" : "waitingForAction")
                    strategy.member("conditionValid", status.conditionValid)
                    strategy.member("explanation", status.explanation)
                    strategy.member("lastSeen", status.lastSeen.rfc3339String)
                    strategy.member("resetsAt", status.resetsAt?.rfc3339String)
                    if let progress = status.progress {
                        strategy.member("progress", DecisionTimeline.format(progress))
                    }
                }
            } else {
                object.null()
            }
            object.key("waiting")
            object.array { array in
                for waiting in decision.waiting {
                    array.object { row in
                        row.member("reason", waiting.reason.rawValue)
                        row.member("until", waiting.until.rfc3339String)
                        row.member("why", CurrentDecision.why(waiting))
                    }
                }
            }
            object.key("events")
            object.array { array in
                for event in decision.events.suffix(20) {
                    array.object { row in
                        row.member("event", event.kind.rawValue)
                        row.member("time", event.time.rfc3339String)
                        if event.attempt > 0 { row.member("attempt", event.attempt) }
                        if !event.messages.isEmpty { row.member("messages", event.messages.joined(separator: "; ")) }
                    }
                }
            }
        }
        return json.string
    }
}
