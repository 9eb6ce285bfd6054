import BeaconAlertEngine
import BeaconCore
import BeaconPipeline

/// `GET /api/alerts?after=SEQ&limit=`: the delivered alerts waiting for an answer by priority
/// (`unanswered`), the alerts the engine holds back (the higher priorities first), the
/// outboxes, and the alert log (newest first) with each sink's delivery.
enum AlertsEndpoint: StatusAPIEndpoint {
    /// Which part of the log.
    struct Query: StatusAPIQuery {
        /// Only the log entries with a greater sequence (0: from the oldest kept).
        var after = 0
        /// At most how many log entries (the newest of them), 0 to 500.
        var limit = 100

        init(_ query: StatusQuery) throws(StatusQueryError) {
            after = try query.integer(
                "after", default: 0, in: 0...Int.max,
                meaning: "the sequence of the newest log entry you have, to get only newer ones")
            limit = try query.integer(
                "limit", default: 100, in: 0...500, meaning: "at most how many log entries to list, 0 to 500")
        }
    }

    static let path = "/api/alerts"

    static func document(_ snapshot: StatusBoard.Snapshot, query: Query, routes: StatusRoutes) -> String {
        let inspection = snapshot.inspection
        let log = routes.board.log
        let titles = Dictionary(
            inspection.alerts.map { ($0.definition.id, $0.definition.rule.content.title) },
            uniquingKeysWith: { a, _ in a })
        let priorities = Dictionary(
            inspection.alerts.map { ($0.definition.id, $0.definition.rule.policy.priority) },
            uniquingKeysWith: { a, _ in a })
        // The higher priorities first (the page's order), then as the engine lists them.
        let waitingRows = inspection.waiting.enumerated().sorted { a, b in
            let (pa, pb) = (priorities[a.element.key.alertID] ?? .active, priorities[b.element.key.alertID] ?? .active)
            return pa != pb ? pa > pb : a.offset < b.offset
        }.map(\.element)
        let entries = log.entries(after: query.after, limit: query.limit)
        var json = JSONWriter()
        json.object { object in
            StatusAPI.header(&object, snapshot)
            StatusAPI.outbox(&object, snapshot)
            object.member("latest", log.latestSequence)
            object.key("unanswered")
            object.object { counts in
                for priority in AlertPriority.allCases.reversed() {
                    counts.member(priority.rawValue, inspection.statistics.unanswered[priority])
                }
            }
            object.key("waiting")
            object.array { array in
                for waiting in waitingRows {
                    array.object { row in
                        row.member("alert", waiting.key.alertID)
                        row.member("priority", (priorities[waiting.key.alertID] ?? .active).rawValue)
                        row.member("beacon", "\(waiting.key.beacon)")
                        row.member("name", inspection.directory[waiting.key.beacon]?.name)
                        row.member("title", titles[waiting.key.alertID] ?? nil)
                        row.member("reason", waiting.reason.rawValue)
                        row.member("until", waiting.until.rfc3339String)
                        row.member("firedAt", waiting.firedAt?.rfc3339String)
                        row.member("occurrence", waiting.occurrence)
                        row.member("instance", waiting.instance?.description)
                        row.member("cancel", waiting.cancellable?.description)
                        if waiting.attempt > 0 { row.member("attempt", waiting.attempt) }
                        row.member("why", CurrentDecision.why(waiting))
                    }
                }
            }
            object.key("log")
            object.array { array in for entry in entries.reversed() { write(entry, names: inspection.directory, to: &array) }
            }
        }
        return json.string
    }

    private static func write(_ entry: AlertLog.Entry, names: BeaconDirectory, to array: inout JSONWriter) {
        array.object { row in
            let event = entry.event
            row.member("sequence", entry.sequence)
            row.member("event", event.kind.rawValue)
            row.member("alert", event.alertID)
            row.member("priority", event.priority.rawValue)
            row.member("beacon", "\(event.beacon)")
            row.member("name", names[event.beacon]?.name)
            row.member("title", event.content.title)
            row.member("time", event.time.rfc3339String)
            row.member("scheduledFor", event.scheduledFor?.rfc3339String)
            row.member("message", event.messages.first)
            if event.kind != .error { row.member("instance", event.instanceKey) }
            if event.attempt > 0 { row.member("attempt", event.attempt) }
            row.member("by", event.answeredBy)
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
