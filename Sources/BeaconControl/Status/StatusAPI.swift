import BeaconCore
import BeaconPipeline

/// The status page's JSON documents (API version ``version``), rendered from a
/// ``StatusBoard/Snapshot``; `Docs/status-api.schema.json` is their schema. Each endpoint is a
/// ``StatusAPIEndpoint`` with its own typed query, in a file of its own:
///
/// | endpoint | type | document |
/// |---|---|---|
/// | `GET /api/status` | ``StatusSummaryEndpoint`` | the summary (also each Server-Sent Event of `GET /api/events`) |
/// | `GET /api/beacons?sort=&order=&filter=&offset=&limit=` | ``BeaconsEndpoint`` | one page of the beacons, sorted and filtered |
/// | `GET /api/beacons/history?id=ID` | ``BeaconHistoryEndpoint`` | a beacon's recent RSSI, raw and filtered, per gateway on a site |
/// | `GET /api/strategies?alert=&beacon=&limit=` | ``StrategiesEndpoint`` | each alert definition's strategy state per beacon |
/// | `GET /api/explain?alert=&beacon=` | ``ExplainEndpoint`` | where one alert stands for one beacon now, and why |
/// | `GET /api/alerts?after=SEQ&limit=` | ``AlertsEndpoint`` | waiting alerts, outbox depths and the alert log |
/// | `GET /api/shadow?within=&limit=` | ``ShadowEndpoint`` | the candidate alert set beside the live one, and what it would change |
/// | `GET /api/site?limit=` | ``SiteEndpoint`` | a site's gateways, rooms with occupancy, and beacons' positions |
enum StatusAPI {
    /// The documents' version: a field renamed or removed makes it 2; fields are only added within 1.
    static let version = 1

    /// Every JSON endpoint.
    static var endpoints: [any StatusAPIEndpoint.Type] {
        [
            StatusSummaryEndpoint.self, BeaconsEndpoint.self, BeaconHistoryEndpoint.self, StrategiesEndpoint.self,
            ExplainEndpoint.self, AlertsEndpoint.self, ShadowEndpoint.self, SiteEndpoint.self,
        ]
    }

    // MARK: Parts every document shares

    /// The members every document starts with: `version`, `refresh`, `time`, `cycleTime`.
    static func header(_ object: inout JSONWriter, _ snapshot: StatusBoard.Snapshot) {
        object.member("version", version)
        object.member("refresh", snapshot.version)
        object.member("time", snapshot.inspection.time?.rfc3339String)
        object.member("cycleTime", snapshot.inspection.cycleTime?.rfc3339String)
    }

    /// `outbox`: each sink's outbox depth.
    static func outbox(_ object: inout JSONWriter, _ snapshot: StatusBoard.Snapshot) {
        object.key("outbox")
        object.object { outbox in for entry in snapshot.outbox { outbox.member(entry.sink, entry.depth) } }
    }

    /// `latency`: per sink, the deliveries of the window, p50 and p99 (seconds, to the millisecond),
    /// the window and the objective.
    static func latency(_ object: inout JSONWriter, _ snapshot: StatusBoard.Snapshot) {
        object.key("latency")
        object.array { array in
            for entry in snapshot.latency {
                array.object { sink in
                    sink.member("sink", entry.sink)
                    sink.member("deliveries", entry.deliveries)
                    sink.member("p50", entry.p50.map { rounded($0, 3) })
                    sink.member("p99", entry.p99.map { rounded($0, 3) })
                    sink.member("window", entry.windowSeconds)
                    sink.member("objective", entry.objectiveSeconds)
                    sink.member("objectiveMissed", entry.objectiveMissed)
                }
            }
        }
    }

    /// A position as `{x, y, z, error}`, in metres to the centimetre.
    static func point(_ position: BeaconPosition, to json: inout JSONWriter) {
        json.object {
            $0.member("x", rounded(position.x, 2))
            $0.member("y", rounded(position.y, 2))
            $0.member("z", rounded(position.z, 2))
            $0.member("error", rounded(position.error, 2))
            $0.member("radius90", rounded(position.radius90, 2))
        }
    }

    /// `value` to `places` decimals (the API's precision: 0.1 dB, 1 cm).
    static func rounded(_ value: Double, _ places: Int) -> Double {
        let scale = [1.0, 10, 100, 1000][places]
        return (value * scale).rounded() / scale
    }
}
