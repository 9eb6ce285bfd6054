import BeaconCore
import BeaconPipeline
import BeaconSite
import BeaconSiteReport

/// `GET /api/beacons/history?id=ID`: a beacon's RSSI samples taken while the page was open,
/// raw and filtered, and on a site each gateway's.
enum BeaconHistoryEndpoint: StatusAPIEndpoint {
    /// Which beacon.
    struct Query: StatusAPIQuery {
        /// The beacon (`ibeacon:UUID:major:minor`, `altbeacon:…`, `eddystone-uid:…`).
        var id: BeaconID

        init(_ query: StatusQuery) throws(StatusQueryError) {
            let form = "ibeacon:UUID:major:minor (or altbeacon:…, eddystone-uid:…)"
            guard let text = query.text("id") else { throw StatusQueryError("give the beacon as ?id=\(form)") }
            guard let id = BeaconID(text) else { throw StatusQueryError("id=\(text) is not a beacon: give it as \(form)") }
            self.id = id
        }
    }

    static let path = "/api/beacons/history"

    static func document(_ snapshot: StatusBoard.Snapshot, query: Query, routes: StatusRoutes) -> String {
        let samples = routes.board.history(of: query.id)
        let gateways = snapshot.inspection.site?.gateways.map(\.id) ?? []
        var json = JSONWriter()
        json.object { object in
            StatusAPI.header(&object, snapshot)
            object.member("id", "\(query.id)")
            object.key("gateways")
            object.array { array in for gateway in gateways { array.value(gateway) } }
            object.key("samples")
            object.array { array in
                for sample in samples {
                    array.object { row in
                        row.member("time", sample.time.rfc3339String)
                        row.member("raw", sample.raw.isNaN ? nil : Double(sample.raw))
                        row.member("filtered", sample.filtered.isNaN ? nil : StatusAPI.rounded(Double(sample.filtered), 1))
                        if !gateways.isEmpty {
                            row.key("gateways")
                            row.array { values in
                                for value in sample.gateways {
                                    if value.isNaN { values.null() } else { values.value(StatusAPI.rounded(Double(value), 1)) }
                                }
                            }
                        }
                    }
                }
            }
        }
        return json.string
    }
}
