import BeaconCore
import BeaconPipeline

/// `GET /api/beacons?sort=&order=&filter=&offset=&limit=`: one page of the listed beacons,
/// filtered and sorted on the server so that the page renders only the rows in view.
enum BeaconsEndpoint: StatusAPIEndpoint {
    /// What a beacon row may be sorted by.
    enum Sort: String, CaseIterable, Sendable {
        case id, name, title, proximity, room, distance, rssi, lastSeen, addresses
    }

    /// Which way a sort goes.
    enum Order: String, CaseIterable, Sendable {
        case asc, desc
    }

    /// Which rows, in which order.
    struct Query: StatusAPIQuery {
        /// The sort key (`id`).
        var sort = Sort.id
        /// `desc` reverses the sort (ties still go by id, ascending).
        var order = Order.asc
        /// Keeps the rows whose id, name, tag, title, room, band or address contains it, lowercased (empty: all).
        var filter = ""
        /// The first row of the page, from 0.
        var offset = 0
        /// At most how many rows, 0 to 1,000.
        var limit = 100

        init(_ query: StatusQuery) throws(StatusQueryError) {
            sort = try query.choice("sort", default: .id)
            order = try query.choice("order", default: .asc)
            filter = (query.text("filter") ?? "").lowercased()
            offset = try query.integer(
                "offset", default: 0, in: 0...Int.max, meaning: "the first row to list, from 0")
            limit = try query.integer(
                "limit", default: 100, in: 0...1000, meaning: "at most how many beacons to list, 0 to 1000")
        }
    }

    static let path = "/api/beacons"

    static func document(_ snapshot: StatusBoard.Snapshot, query: Query, routes: StatusRoutes) -> String {
        let inspection = snapshot.inspection
        let titleOf = BeaconTitles(inspection.alerts)
        let titles = inspection.beacons.map { titleOf[$0.id] } // once per beacon, not per comparison
        let rows = self.rows(of: inspection, titles: titles, query: query)
        let offset = min(query.offset, rows.count)
        var json = JSONWriter()
        json.object { object in
            StatusAPI.header(&object, snapshot)
            object.member("total", rows.count)
            object.member("offset", offset)
            object.key("beacons")
            object.array { array in
                for index in rows[offset..<min(rows.count, offset + query.limit)] {
                    let beacon = inspection.beacons[index]
                    array.object { row in
                        write(beacon, title: titles[index], named: inspection.directory[beacon.id], to: &row)
                        if index < inspection.gatewayRSSI.count {
                            row.key("gateways")
                            row.array { gateways in
                                for evidence in inspection.gatewayRSSI[index] {
                                    gateways.object {
                                        $0.member("gateway", evidence.gateway)
                                        $0.member("rssi", evidence.rssi.map { StatusAPI.rounded($0, 1) })
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

    /// The indices of the beacons that pass the filter, in the query's order.
    private static func rows(of inspection: PipelineInspection, titles: [String?], query: Query) -> [Int] {
        let filter = query.filter
        var rows = Array(inspection.beacons.indices)
        if !filter.isEmpty {
            rows = rows.filter { index in
                let beacon = inspection.beacons[index]
                let named = inspection.directory[beacon.id]
                return "\(beacon.id)".lowercased().contains(filter)
                    || (named.map { $0.name.lowercased().contains(filter) || $0.tags.contains(filter) } ?? false)
                    || (titles[index]?.lowercased().contains(filter) ?? false)
                    || (beacon.room?.lowercased().contains(filter) ?? false)
                    || beacon.proximity.name.contains(filter)
                    || (beacon.addressCount > 0 && "\(beacon.lastAddress)".lowercased().contains(filter))
            }
        }
        let descending = query.order == .desc
        rows.sort { a, b in
            let x = inspection.beacons[a]
            let y = inspection.beacons[b]
            let ordered: Bool? =
                switch query.sort {
                case .name: compare(inspection.directory[x.id]?.name, inspection.directory[y.id]?.name)
                case .title: compare(titles[a], titles[b])
                case .proximity: compare(x.proximity.rawValue, y.proximity.rawValue)
                case .room: compare(x.room, y.room)
                case .distance: compare(x.distance, y.distance)
                case .rssi: compare(x.filteredRSSI, y.filteredRSSI)
                case .lastSeen: compare(x.lastSeen, y.lastSeen)
                case .addresses: compare(x.addressCount, y.addressCount)
                case .id: nil
                }
            // Ties (and `id`) go by id, always ascending, so that a page is stable.
            return ordered.map { descending ? !$0 : $0 } ?? (x.id < y.id)
        }
        return rows
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

    private static func write(_ beacon: RangedBeacon, title: String?, named: NamedBeacon?, to row: inout JSONWriter) {
        row.member("id", "\(beacon.id)")
        if let named {
            row.member("name", named.name)
            row.key("tags")
            row.array { array in for tag in named.tags { array.value(tag) } }
        }
        row.member("title", title)
        row.member("proximity", beacon.proximity.name)
        row.member("room", beacon.room)
        row.member("distance", beacon.distance.map { StatusAPI.rounded($0, 2) })
        row.member("accuracy", beacon.accuracy.map { StatusAPI.rounded($0, 2) })
        row.member("rssi", beacon.filteredRSSI.map { StatusAPI.rounded($0, 1) })
        row.member("rawRSSI", beacon.meanRSSI.map { StatusAPI.rounded($0, 1) })
        row.member("seen", beacon.seenThisCycle)
        row.member("samples", beacon.sampleCount)
        row.member("firstSeen", beacon.firstSeen.rfc3339String)
        row.member("lastSeen", beacon.lastSeen.rfc3339String)
        row.member("address", beacon.addressCount > 0 ? "\(beacon.lastAddress)" : nil)
        row.member("addresses", beacon.addressCount)
        row.member("gatewayCount", beacon.gatewayCount)
        row.key("position")
        if let position = beacon.position { StatusAPI.point(position, to: &row) } else { row.null() }
    }
}
