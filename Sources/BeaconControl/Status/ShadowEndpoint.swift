import BeaconAlertEngine
import BeaconCore
import BeaconPipeline

/// `GET /api/shadow?within=SECONDS&limit=N`: the candidate alert set running beside the live
/// one, if any (`"shadow": null` when none), and what it would have changed since it started —
/// per alert the deliveries the same, earlier, later, added and dropped
/// (`AlertSetDifference`, deliveries paired within `within`, default 300 s), then the latest
/// `limit` differences (default 50).
enum ShadowEndpoint: StatusAPIEndpoint {
    /// How deliveries pair and how many differences to list.
    struct Query: StatusAPIQuery {
        /// The farthest apart two deliveries pair, seconds.
        var within: Int
        /// How many differences to list, the latest.
        var limit: Int

        init(_ query: StatusQuery) throws(StatusQueryError) {
            within = try query.integer(
                "within", default: 300, in: 0...86_400, meaning: "how many seconds apart two deliveries may pair")
            limit = try query.integer("limit", default: 50, in: 0...10_000, meaning: "how many differences to list")
        }
    }

    static let path = "/api/shadow"

    static func document(_ snapshot: StatusBoard.Snapshot, query: Query, routes: StatusRoutes) -> String {
        var json = JSONWriter()
        json.object { object in
            StatusAPI.header(&object, snapshot)
            object.key("shadow")
            guard let comparison = snapshot.inspection.shadow else {
                object.null()
                return
            }
            let difference = comparison.difference(within: .seconds(query.within))
            object.object { shadow in
                shadow.member("candidate", comparison.name)
                shadow.key("candidateAlerts")
                shadow.array { array in for id in comparison.alertIDs { array.value(id) } }
                shadow.member("since", comparison.since?.rfc3339String)
                shadow.member("running", comparison.failure == nil)
                shadow.member("failure", comparison.failure)
                shadow.member("liveDeliveries", comparison.live.count)
                shadow.member("shadowDeliveries", comparison.shadow.count)
                shadow.member("dropped", comparison.droppedLive + comparison.droppedShadow)
                shadow.member("why", summary(difference))
                shadow.key("alerts")
                difference.writeCounts(to: &shadow)
                shadow.key("differences")
                AlertSetDifference.writeChanges(difference.differences.suffix(query.limit), to: &shadow)
            }
        }
        return json.string
    }

    /// One sentence for the page: `2 added, 1 earlier, 0 later, 0 dropped (5 the same)`.
    static func summary(_ difference: AlertSetDifference) -> String {
        var totals: [AlertSetDifference.Change.Kind: Int] = [:]
        for change in difference.changes { totals[change.kind, default: 0] += 1 }
        if difference.changes.isEmpty { return "no deliveries yet with either set" }
        let kinds: [AlertSetDifference.Change.Kind] = [.added, .dropped, .earlier, .later]
        let parts = kinds.map { "\(totals[$0] ?? 0) \($0.rawValue)" }
        return parts.joined(separator: ", ") + " (\(totals[.same] ?? 0) the same)"
    }
}
