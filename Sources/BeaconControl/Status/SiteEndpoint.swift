import BeaconCore
import BeaconDevices
import BeaconPipeline
import BeaconSite
import BeaconSiteReport

/// `GET /api/site?limit=`: a site's gateways, its rooms with their occupancy, the beacons'
/// positions, the floor plan (image, walls and blocks) and the hub's report counts (for one gateway: `site` false,
/// empty lists and zero counts).
enum SiteEndpoint: StatusAPIEndpoint {
    /// How many positions.
    struct Query: StatusAPIQuery {
        /// At most how many positioned beacons, 0 to 100,000.
        var limit = 2000

        init(_ query: StatusQuery) throws(StatusQueryError) {
            limit = try query.integer(
                "limit", default: 2000, in: 0...100_000,
                meaning: "at most how many positioned beacons to list, 0 to 100000")
        }
    }

    static let path = "/api/site"

    static func document(_ snapshot: StatusBoard.Snapshot, query: Query, routes: StatusRoutes) -> String {
        let inspection = snapshot.inspection
        var json = JSONWriter()
        json.object { object in
            StatusAPI.header(&object, snapshot)
            object.member("site", inspection.site != nil)
            object.key("gateways")
            object.array { array in
                for (index, gateway) in (inspection.site?.gateways ?? []).enumerated() {
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
                        row.member("floor", inspection.site?.floor(ofGateway: index))
                        if inspection.gatewayStatuses.indices.contains(index) {
                            let status = inspection.gatewayStatuses[index]
                            row.member("online", status.online)
                            row.member("lastReport", status.lastReport?.rfc3339String)
                            // Before its first change a gateway has no moment to name (not 1970).
                            if status.since.nanosecondsSinceEpoch > 0 {
                                row.member("since", status.since.rfc3339String)
                            }
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
                        row.member("floor", inspection.site?.floor(ofRoom: room))
                        row.key("beacons")
                        row.array { ids in for id in inside.prefix(50) { ids.value("\(id)") } }
                        if let outline = inspection.site?.roomOutlines.first(where: { $0.room == room }) {
                            row.key("outline")
                            write(outline.corners, to: &row)
                        }
                        if !inspection.people.isEmpty {
                            row.key("people")
                            row.array { names in
                                for place in inspection.people where place.room == room { names.value(place.person) }
                            }
                        }
                    }
                }
            }
            let positioned = inspection.beacons.filter { $0.position != nil }
            object.member("positioned", positioned.count)
            object.member("unknown", inspection.beacons.filter(\.roomUnknown).count)
            object.key("people")
            object.array { array in
                for place in inspection.people {
                    array.object { row in
                        row.member("name", place.person)
                        row.member("present", place.present)
                        row.member("room", place.room)
                        row.member("by", place.by.map { "\($0)" })
                    }
                }
            }
            object.key("floors")
            object.array { array in for floor in inspection.site?.floors ?? [] { array.value(floor) } }
            object.key("beacons")
            object.array { array in
                for beacon in positioned.prefix(query.limit) {
                    array.object { row in
                        row.member("id", "\(beacon.id)")
                        row.member("name", inspection.directory[beacon.id]?.name)
                        row.member("room", beacon.room)
                        row.key("position")
                        StatusAPI.point(beacon.position!, to: &row)
                        if let confidence = beacon.roomConfidence {
                            row.key("confidence")
                            row.value(confidence, decimals: 3)
                        }
                        row.member("floor", beacon.floor)
                    }
                }
            }
            object.key("floorPlan")
            if let floorPlan = routes.floorPlan { write(floorPlan, to: &object) } else { object.null() }
            object.key("obstacles")
            object.array { array in for obstacle in inspection.site?.obstacles ?? [] { write(obstacle, to: &array) } }
            write(inspection.statistics.site ?? SiteFusionStatistics(), to: &object)
            object.key("calibration")
            if let calibration = inspection.statistics.site?.calibration {
                write(calibration, gateways: inspection.site?.gateways.map(\.id) ?? [], to: &object)
            } else {
                object.null()
            }
        }
        return json.string
    }

    /// `reports: {fused, records, late, stale, refused: {reason: count}}`: what the hub took
    /// and what it would not (every reason of `beacond_site_reports_refused_total`).
    private static func write(_ statistics: SiteFusionStatistics, to object: inout JSONWriter) {
        object.key("reports")
        object.object { reports in
            reports.member("fused", statistics.reports)
            reports.member("records", statistics.records)
            reports.member("late", statistics.lateRecords)
            reports.member("stale", statistics.staleRecords)
            reports.key("refused")
            reports.object { refused in
                for (reason, count) in statistics.refusedReports.sorted(by: { $0.key.rawValue < $1.key.rawValue })
                where count > 0 {
                    refused.member(reason.rawValue, count)
                }
            }
        }
    }

    /// `calibration: {verdict, reason, exponent, tagHeight, offsets: {gateway: dB},
    /// gatewayExponents: {gateway: n} (where a gateway has its own), fixes,
    /// anchorMeasurements, heldOut: {before, after} | null, exponentError, fits, applied,
    /// fittedAt}`: the radio model in use and the latest fit (`null` when the hub does not
    /// calibrate).
    private static func write(_ status: CalibrationStatus, gateways: [String], to object: inout JSONWriter) {
        object.object { c in
            c.member("verdict", status.verdict.rawValue)
            c.member("reason", status.reason)
            c.member("exponent", status.model.pathLossExponent)
            c.member("tagHeight", status.model.tagHeight)
            c.key("offsets")
            c.object { offsets in
                for (id, offset) in zip(gateways, status.model.receiveOffsets) { offsets.member(id, offset) }
            }
            c.key("gatewayExponents")
            c.object { exponents in
                for (g, id) in gateways.enumerated() where g < status.model.exponentOffsets.count {
                    if status.model.exponentOffsets[g] != 0 { exponents.member(id, status.model.exponent(g)) }
                }
            }
            c.member("fixes", status.fixes)
            c.member("anchorMeasurements", status.anchorMeasurements)
            c.key("heldOut")
            if let before = status.heldOutBefore, let after = status.heldOutAfter {
                c.object {
                    $0.member("before", before)
                    $0.member("after", after)
                }
            } else {
                c.null()
            }
            c.key("exponentError")
            if let error = status.exponentError { c.value(error) } else { c.null() }
            c.member("fits", status.fits)
            c.member("applied", status.applied)
            c.key("fittedAt")
            if let time = status.fittedAt { c.value(time.rfc3339String) } else { c.null() }
        }
    }

    /// `{kind: wall|block, points: [[x, y], …], floor}`: a wall or block of the floor plan.
    private static func write(_ obstacle: SiteObstacle, to array: inout JSONWriter) {
        array.object { row in
            switch obstacle.shape {
            case .wall: row.member("kind", "wall")
            case .block: row.member("kind", "block")
            }
            row.key("points")
            write(obstacle.points, to: &row)
            row.member("floor", obstacle.floor)
        }
    }

    /// `[[x, y], …]`, to the millimetre.
    private static func write(_ points: [SIMD2<Double>], to object: inout JSONWriter) {
        object.array { array in
            for point in points {
                array.array {
                    $0.value(point.x, decimals: 3)
                    $0.value(point.y, decimals: 3)
                }
            }
        }
    }

    /// `{image, min, max}`: where the page gets the image, and the site rectangle it covers.
    private static func write(_ floorPlan: FloorPlan, to object: inout JSONWriter) {
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
    }
}
