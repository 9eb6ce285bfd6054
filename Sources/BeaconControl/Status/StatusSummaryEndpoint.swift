import BeaconCore
import BeaconPipeline

/// `GET /api/status`: the summary — the source, counters, the alerts in force, how many wait,
/// the alert log's newest sequence, the outboxes, and each sink's alert latency (`latency`:
/// empty unless the source is live). Also each event of `GET /api/events`.
enum StatusSummaryEndpoint: StatusAPIEndpoint {
    /// Takes no parameters.
    struct Query: StatusAPIQuery {
        /// The summary's query: nothing to say.
        init() {}

        init(_ query: StatusQuery) {}
    }

    static let path = "/api/status"

    static func document(_ snapshot: StatusBoard.Snapshot, query: Query, routes: StatusRoutes) -> String {
        let inspection = snapshot.inspection
        let board = routes.board
        var json = JSONWriter()
        json.object { object in
            StatusAPI.header(&object, snapshot)
            object.member("source", board.sources.sourceName)
            object.member("beaconsTracked", inspection.trackedBeacons)
            object.member("beaconsListed", inspection.beacons.count)
            object.member("packets", inspection.statistics.packets)
            object.member("sightings", inspection.statistics.sightings)
            object.member("cycles", inspection.statistics.cycles)
            object.member("site", inspection.site != nil)
            object.member("shadow", inspection.shadow?.name)
            if let remote = snapshot.remote {
                object.key("remote")
                object.object { remoteObject in
                    remoteObject.member("url", remote.url)
                    remoteObject.member("environment", remote.environment)
                    remoteObject.member("checked", remote.time.rfc3339String)
                    remoteObject.member("outcome", remote.outcome)
                    remoteObject.member("failure", remote.failure)
                    remoteObject.member("lastSuccess", remote.lastSuccess?.rfc3339String)
                }
            }
            if let broker = board.sources.broker() {
                object.key("broker")
                object.object { brokerObject in broker.writeMembers(into: &brokerObject) }
            }
            if let reload = snapshot.reload {
                object.key("reload")
                object.object { reloadObject in reload.writeMembers(into: &reloadObject) }
            }
            object.key("alerts")
            object.array { array in for alert in inspection.alerts { array.value(alert.definition.id) } }
            object.member("waiting", inspection.waiting.count)
            object.member("logLatest", board.log.latestSequence)
            StatusAPI.outbox(&object, snapshot)
            StatusAPI.latency(&object, snapshot)
        }
        return json.string
    }
}
