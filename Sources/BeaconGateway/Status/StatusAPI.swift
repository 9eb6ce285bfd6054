import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import BeaconSite
import BeaconStrategyKit

/// The status page's JSON documents (API version ``version``), rendered from a
/// ``StatusBoard/Snapshot``; `Docs/status-api.schema.json` is their schema.
///
/// | endpoint | document |
/// |---|---|
/// | `GET /api/status` | the summary (also each Server-Sent Event of `GET /api/events`) |
/// | `GET /api/beacons?sort=&order=&filter=&offset=&limit=` | one page of the beacons, sorted and filtered |
/// | `GET /api/beacons/history?id=ID` | a beacon's recent RSSI, raw and filtered, per gateway on a site |
/// | `GET /api/strategies?alert=&beacon=&limit=` | each alert definition's strategy state per beacon |
/// | `GET /api/alerts?after=SEQ&limit=` | waiting alerts, outbox depths and the alert log |
/// | `GET /api/site` | a site's gateways, rooms with occupancy, and beacons' positions |
enum StatusAPI {
    /// The documents' version: a field renamed or removed makes it 2; fields are only added within 1.
    static let version = 1

    // MARK: /api/status

    static func status(_ snapshot: StatusBoard.Snapshot, board: StatusBoard) -> String {
        let inspection = snapshot.inspection
        var json = JSONWriter()
        json.object { object in
            header(&object, snapshot)
            object.member("source", board.sources.sourceName)
            object.member("beaconsTracked", inspection.trackedBeacons)
            object.member("beaconsListed", inspection.beacons.count)
            object.member("packets", inspection.statistics.packets)
            object.member("sightings", inspection.statistics.sightings)
            object.member("cycles", inspection.statistics.cycles)
            object.member("site", inspection.site != nil)
            object.key("alerts")
            object.array { array in for alert in inspection.alerts { array.value(alert.definition.id) } }
            object.member("waiting", inspection.waiting.count)
            object.member("logLatest", board.log.latestSequence)
            outbox(&object, snapshot)
        }
        return json.string
    }

    // MARK: /api/beacons

    /// The sort keys of `GET /api/beacons`.
    static let beaconSorts = ["id", "title", "proximity", "room", "distance", "rssi", "lastSeen", "addresses"]

    static func beacons(_ snapshot: StatusBoard.Snapshot, query: [String: String]) -> String {
        let inspection = snapshot.inspection
        let titleOf = Titles(inspection.alerts)
        let titles = inspection.beacons.map { titleOf[$0.id] } // once per beacon, not per comparison
        let filter = (query["filter"] ?? "").lowercased()
        var rows = Array(inspection.beacons.indices)
        if !filter.isEmpty {
            rows = rows.filter { index in
                let beacon = inspection.beacons[index]
                return "\(beacon.id)".lowercased().contains(filter)
                    || (titles[index]?.lowercased().contains(filter) ?? false)
                    || (beacon.room?.lowercased().contains(filter) ?? false)
                    || beacon.proximity.name.contains(filter)
                    || (beacon.addressCount > 0 && "\(beacon.lastAddress)".lowercased().contains(filter))
            }
        }
        let descending = query["order"] == "desc"
        let sort = query["sort"] ?? "id"
        rows.sort { a, b in
            let x = inspection.beacons[a]
            let y = inspection.beacons[b]
            let ordered: Bool? =
                switch sort {
                case "title": compare(titles[a], titles[b])
                case "proximity": compare(x.proximity.rawValue, y.proximity.rawValue)
                case "room": compare(x.room, y.room)
                case "distance": compare(x.distance, y.distance)
                case "rssi": compare(x.filteredRSSI, y.filteredRSSI)
                case "lastSeen": compare(x.lastSeen, y.lastSeen)
                case "addresses": compare(x.addressCount, y.addressCount)
                default: nil
                }
            // Ties (and `id`) go by id, always ascending, so that a page is stable.
            return ordered.map { descending ? !$0 : $0 } ?? (x.id < y.id)
        }
        let offset = min(max(0, Int(query["offset"] ?? "") ?? 0), rows.count)
        let limit = min(max(0, Int(query["limit"] ?? "") ?? 100), 1000)
        var json = JSONWriter()
        json.object { object in
            header(&object, snapshot)
            object.member("total", rows.count)
            object.member("offset", offset)
            object.key("beacons")
            object.array { array in
                for index in rows[offset..<min(rows.count, offset + limit)] {
                    let beacon = inspection.beacons[index]
                    array.object { row in
                        write(beacon, title: titles[index], to: &row)
                        if index < inspection.gatewayRSSI.count {
                            row.key("gateways")
                            row.array { gateways in
                                for evidence in inspection.gatewayRSSI[index] {
                                    gateways.object {
                                        $0.member("gateway", evidence.gateway)
                                        $0.member("rssi", evidence.rssi.map { rounded($0, 1) })
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return json.string
    }

    /// `value` to `places` decimals (the API's precision: 0.1 dB, 1 cm).
    private static func rounded(_ value: Double, _ places: Int) -> Double {
        let scale = [1.0, 10, 100, 1000][places]
        return (value * scale).rounded() / scale
    }

    /// `a < b`, nil when equal; a missing value sorts after every present one.
    private static func compare<T: Comparable>(_ a: T?, _ b: T?) -> Bool? {
        switch (a, b) {
        case (nil, nil): nil
        case (nil, _): false
        case (_, nil): true
        case (let a?, let b?): a == b ? nil : a < b
        }
    }

    private static func write(_ beacon: RangedBeacon, title: String?, to row: inout JSONWriter) {
        row.member("id", "\(beacon.id)")
        row.member("title", title)
        row.member("proximity", beacon.proximity.name)
        row.member("room", beacon.room)
        row.member("distance", beacon.distance.map { rounded($0, 2) })
        row.member("accuracy", beacon.accuracy.map { rounded($0, 2) })
        row.member("rssi", beacon.filteredRSSI.map { rounded($0, 1) })
        row.member("rawRSSI", beacon.meanRSSI.map { rounded($0, 1) })
        row.member("seen", beacon.seenThisCycle)
        row.member("samples", beacon.sampleCount)
        row.member("firstSeen", beacon.firstSeen.rfc3339String)
        row.member("lastSeen", beacon.lastSeen.rfc3339String)
        row.member("address", beacon.addressCount > 0 ? "\(beacon.lastAddress)" : nil)
        row.member("addresses", beacon.addressCount)
        row.member("gatewayCount", beacon.gatewayCount)
        row.key("position")
        if let position = beacon.position { point(position, to: &row) } else { row.null() }
    }

    private static func point(_ position: BeaconPosition, to json: inout JSONWriter) {
        json.object {
            $0.member("x", rounded(position.x, 2))
            $0.member("y", rounded(position.y, 2))
            $0.member("z", rounded(position.z, 2))
            $0.member("error", rounded(position.error, 2))
        }
    }

    // MARK: /api/beacons/history

    static func history(
        _ snapshot: StatusBoard.Snapshot, beacon: BeaconID, samples: [BeaconHistory.Sample]
    ) -> String {
        let gateways = snapshot.inspection.site?.gateways.map(\.id) ?? []
        var json = JSONWriter()
        json.object { object in
            header(&object, snapshot)
            object.member("id", "\(beacon)")
            object.key("gateways")
            object.array { array in for gateway in gateways { array.value(gateway) } }
            object.key("samples")
            object.array { array in
                for sample in samples {
                    array.object { row in
                        row.member("time", sample.time.rfc3339String)
                        row.member("raw", sample.raw.isNaN ? nil : Double(sample.raw))
                        row.member("filtered", sample.filtered.isNaN ? nil : rounded(Double(sample.filtered), 1))
                        if !gateways.isEmpty {
                            row.key("gateways")
                            row.array { values in
                                for value in sample.gateways {
                                    if value.isNaN { values.null() } else { values.value(rounded(Double(value), 1)) }
                                }
                            }
                        }
                    }
                }
            }
        }
        return json.string
    }

    // MARK: /api/strategies

    static func strategies(_ snapshot: StatusBoard.Snapshot, query: [String: String]) -> String {
        let inspection = snapshot.inspection
        let now = inspection.cycleTime ?? inspection.time ?? .epoch
        let limit = min(max(0, Int(query["limit"] ?? "") ?? 200), 10_000)
        let beaconFilter = query["beacon"]
        var json = JSONWriter()
        json.object { object in
            header(&object, snapshot)
            object.key("alerts")
            object.array { array in
                for alert in inspection.alerts where query["alert"].map({ $0 == alert.definition.id }) ?? true {
                    var statuses = alert.statuses
                    if let beaconFilter { statuses = statuses.filter { "\($0.beacon)" == beaconFilter } }
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
                            for status in statuses.prefix(limit) { write(status, now: now, to: &states) }
                        }
                    }
                }
            }
        }
        return json.string
    }

    private static func write(_ status: StrategyBeaconStatus, now: Timestamp, to array: inout JSONWriter) {
        array.object { row in
            row.member("beacon", "\(status.beacon)")
            row.member("status", status.actionStatus == .actionDone ? "actionDone" : "waitingForAction")
            row.member("conditionValid", status.conditionValid)
            row.member("lastSeen", status.lastSeen.rfc3339String)
            row.key("progress")
            if let progress = status.progress {
                row.object {
                    $0.member("value", rounded(progress.value, 1))
                    $0.member("threshold", progress.threshold)
                    $0.member("unit", progress.unit)
                    $0.member("fraction", rounded(progress.fraction, 3))
                }
            } else {
                row.null()
            }
            row.member("resetsAt", status.resetsAt?.rfc3339String)
            row.member("resetsIn", status.resetsAt.map { max(0, ($0 - now).secondsValue) })
        }
    }

    // MARK: /api/alerts

    static func alerts(_ snapshot: StatusBoard.Snapshot, log: AlertLog, query: [String: String]) -> String {
        let inspection = snapshot.inspection
        let titles = Dictionary(
            inspection.alerts.map { ($0.definition.id, $0.definition.rule.content.title) }, uniquingKeysWith: { a, _ in a })
        let entries = log.entries(
            after: Int(query["after"] ?? "") ?? 0, limit: min(max(0, Int(query["limit"] ?? "") ?? 100), 500))
        var json = JSONWriter()
        json.object { object in
            header(&object, snapshot)
            outbox(&object, snapshot)
            object.member("latest", log.latestSequence)
            object.key("waiting")
            object.array { array in
                for waiting in inspection.waiting {
                    array.object { row in
                        row.member("alert", waiting.key.alertID)
                        row.member("beacon", "\(waiting.key.beacon)")
                        row.member("title", titles[waiting.key.alertID] ?? nil)
                        row.member("reason", waiting.reason.rawValue)
                        row.member("until", waiting.until.rfc3339String)
                        row.member("firedAt", waiting.firedAt?.rfc3339String)
                        row.member("occurrence", waiting.occurrence)
                    }
                }
            }
            object.key("log")
            object.array { array in
                for entry in entries.reversed() {
                    array.object { row in
                        let event = entry.event
                        row.member("sequence", entry.sequence)
                        row.member("event", event.kind.rawValue)
                        row.member("alert", event.alertID)
                        row.member("beacon", "\(event.beacon)")
                        row.member("title", event.content.title)
                        row.member("time", event.time.rfc3339String)
                        row.member("scheduledFor", event.scheduledFor?.rfc3339String)
                        row.member("message", event.messages.first)
                        row.key("deliveries")
                        row.object { deliveries in
                            for (sink, delivery) in entry.deliveries.sorted(by: { $0.key < $1.key }) {
                                deliveries.key(sink)
                                deliveries.object {
                                    switch delivery {
                                    case nil:
                                        $0.member("status", "pending")
                                    case .delivered?:
                                        $0.member("status", "delivered")
                                    case .failed(let error)?:
                                        $0.member("status", "failed")
                                        $0.member("error", error)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return json.string
    }

    // MARK: /api/site

    static func site(_ snapshot: StatusBoard.Snapshot, query: [String: String], floorPlan: FloorPlan?) -> String {
        let inspection = snapshot.inspection
        let limit = min(max(0, Int(query["limit"] ?? "") ?? 2000), 100_000)
        var json = JSONWriter()
        json.object { object in
            header(&object, snapshot)
            object.member("site", inspection.site != nil)
            object.key("gateways")
            object.array { array in
                for gateway in inspection.site?.gateways ?? [] {
                    array.object { row in
                        row.member("id", gateway.id)
                        row.member("room", gateway.room)
                        row.key("position")
                        if let p = gateway.position {
                            row.object {
                                $0.member("x", p.x)
                                $0.member("y", p.y)
                                $0.member("z", p.z)
                            }
                        } else {
                            row.null()
                        }
                    }
                }
            }
            var occupants: [String: [BeaconID]] = [:]
            for beacon in inspection.beacons { if let room = beacon.room { occupants[room, default: []].append(beacon.id) } }
            object.key("rooms")
            object.array { array in
                for room in inspection.site?.rooms ?? [] {
                    array.object { row in
                        let inside = (occupants[room] ?? []).sorted()
                        row.member("name", room)
                        row.member("occupancy", inside.count)
                        row.key("beacons")
                        row.array { ids in for id in inside.prefix(50) { ids.value("\(id)") } }
                    }
                }
            }
            let positioned = inspection.beacons.filter { $0.position != nil }
            object.member("positioned", positioned.count)
            object.key("beacons")
            object.array { array in
                for beacon in positioned.prefix(limit) {
                    array.object { row in
                        row.member("id", "\(beacon.id)")
                        row.member("room", beacon.room)
                        row.key("position")
                        point(beacon.position!, to: &row)
                    }
                }
            }
            object.key("floorPlan")
            if let floorPlan {
                object.object { plan in
                    plan.member("image", "/api/site/floorplan")
                    plan.key("min")
                    plan.array {
                        $0.value(floorPlan.min.x)
                        $0.value(floorPlan.min.y)
                    }
                    plan.key("max")
                    plan.array {
                        $0.value(floorPlan.max.x)
                        $0.value(floorPlan.max.y)
                    }
                }
            } else {
                object.null()
            }
        }
        return json.string
    }

    // MARK: Shared parts

    private static func header(_ object: inout JSONWriter, _ snapshot: StatusBoard.Snapshot) {
        object.member("version", version)
        object.member("refresh", snapshot.version)
        object.member("time", snapshot.inspection.time?.rfc3339String)
        object.member("cycleTime", snapshot.inspection.cycleTime?.rfc3339String)
    }

    private static func outbox(_ object: inout JSONWriter, _ snapshot: StatusBoard.Snapshot) {
        object.key("outbox")
        object.object { outbox in for entry in snapshot.outbox { outbox.member(entry.sink, entry.depth) } }
    }

    /// The title of the first alert with content whose match names a beacon.
    struct Titles {
        let alerts: [(match: BeaconMatch, title: String)]

        init(_ alerts: [PipelineInspection.Alert]) {
            self.alerts = alerts.compactMap { alert in
                alert.definition.rule.content.title.map { (alert.definition.match, $0) }
            }
        }

        subscript(id: BeaconID) -> String? { alerts.first { $0.match.matches(id) }?.title }
    }
}
