import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import BeaconStrategyKit

/// `GET /api/strategies?alert=&beacon=&limit=`: each alert definition's strategy state per
/// beacon, closest to firing first.
enum StrategiesEndpoint: StatusAPIEndpoint {
    /// Which alerts and beacons.
    struct Query: StatusAPIQuery {
        /// Only the alert definition with this id (`nil`: every one).
        var alert: String?
        /// Only the beacon written exactly so (`nil`: every one).
        var beacon: String?
        /// At most how many beacons' states per alert, 0 to 10,000.
        var limit = 200

        init(_ query: StatusQuery) throws(StatusQueryError) {
            alert = query.text("alert")
            beacon = query.text("beacon")
            limit = try query.integer(
                "limit", default: 200, in: 0...10_000,
                meaning: "at most how many beacons' states to list per alert, 0 to 10000")
        }
    }

    static let path = "/api/strategies"

    static func document(_ snapshot: StatusBoard.Snapshot, query: Query, routes: StatusRoutes) -> String {
        let inspection = snapshot.inspection
        let now = inspection.cycleTime ?? inspection.time ?? .epoch
        var json = JSONWriter()
        json.object { object in
            StatusAPI.header(&object, snapshot)
            object.key("alerts")
            object.array { array in
                for alert in inspection.alerts where query.alert.map({ $0 == alert.definition.id }) ?? true {
                    var statuses = alert.statuses
                    if let beacon = query.beacon { statuses = statuses.filter { "\($0.beacon)" == beacon } }
                    // Closest to firing first: done, then by progress, then by id.
                    statuses.sort { a, b in
                        let x = (a.actionStatus == .actionDone ? 2 : 0) + (a.progress?.fraction ?? 0)
                        let y = (b.actionStatus == .actionDone ? 2 : 0) + (b.progress?.fraction ?? 0)
                        return x != y ? x > y : a.beacon < b.beacon
                    }
                    array.object { row in
                        let definition = alert.definition
                        row.member("id", definition.id)
                        row.member("strategy", definition.strategy)
                        row.member("match", "\(definition.match)")
                        row.member("title", definition.rule.content.title)
                        row.member("reportsStatus", alert.reportsStatus)
                        row.member("total", statuses.count)
                        row.key("states")
                        row.array { states in
                            for status in statuses.prefix(query.limit) {
                                write(status, now: now, names: inspection.directory, to: &states)
                            }
                        }
                    }
                }
            }
        }
        return json.string
    }

    private static func write(
        _ status: StrategyBeaconStatus, now: Timestamp, names: BeaconDirectory, to array: inout JSONWriter
    ) {
        array.object { row in
            row.member("beacon", "\(status.beacon)")
            row.member("name", names[status.beacon]?.name)
            row.member("status", status.actionStatus == .actionDone ? "actionDone" : "waitingForAction")
            row.member("conditionValid", status.conditionValid)
            row.member("lastSeen", status.lastSeen.rfc3339String)
            row.key("progress")
            if let progress = status.progress {
                row.object {
                    $0.member("value", StatusAPI.rounded(progress.value, 1))
                    $0.member("threshold", progress.threshold)
                    $0.member("unit", progress.unit)
                    $0.member("fraction", StatusAPI.rounded(progress.fraction, 3))
                }
            } else {
                row.null()
            }
            row.member("resetsAt", status.resetsAt?.rfc3339String)
            row.member("resetsIn", status.resetsAt.map { max(0, ($0 - now).secondsValue) })
            row.member("explanation", status.explanation)
            row.member("why", CurrentDecision.why(status, now: now))
        }
    }
}
