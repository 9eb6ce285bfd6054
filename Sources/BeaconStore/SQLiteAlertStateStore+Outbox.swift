import BeaconSinks
import GRDB

extension SQLiteAlertStateStore: Outbox {
    /// Adds a copy of each event for every configured sink, within the caller's transaction;
    /// past a sink's backlog bound the event is dropped for that sink and counted.
    func enqueue(_ events: [OutboundEvent], into db: Database) throws {
        guard !events.isEmpty else { return }
        for sink in outboxConfiguration.sinks {
            var backlog = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE sink = ?", arguments: [sink]) ?? 0
            var dropped = 0
            for event in events {
                if backlog >= outboxConfiguration.maxBacklog {
                    dropped += 1
                    continue
                }
                try db.execute(
                    sql: "INSERT INTO outbox (sink, eventKey, body, destination) VALUES (?, ?, ?, ?)",
                    arguments: [sink, event.key, event.body, event.destination])
                backlog += 1
            }
            if dropped > 0 {
                try db.execute(
                    sql: """
                        INSERT INTO outboxOverflow (sink, dropped) VALUES (?, ?)
                        ON CONFLICT(sink) DO UPDATE SET dropped = dropped + excluded.dropped
                        """, arguments: [sink, dropped])
            }
        }
    }

    /// The oldest `limit` entries of `sink`.
    public func pending(sink: String, limit: Int) throws -> [OutboxEntry] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outbox WHERE sink = ? ORDER BY id LIMIT ?", arguments: [sink, limit])
                .map { row in
                    OutboxEntry(
                        id: row["id"], sink: row["sink"],
                        event: OutboundEvent(key: row["eventKey"], body: row["body"], destination: row["destination"]))
                }
        }
    }

    /// Deletes confirmed entries in one transaction.
    public func remove(_ ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        try database.write { db in
            for id in ids { try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [id]) }
        }
    }

    /// The number of entries waiting for `sink`.
    public func backlog(sink: String) throws -> Int {
        try database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE sink = ?", arguments: [sink]) ?? 0
        }
    }

    /// The number of events dropped for `sink` because its backlog was full (kept across restarts).
    public func overflow(sink: String) throws -> Int {
        try database.read { db in
            try Int.fetchOne(db, sql: "SELECT dropped FROM outboxOverflow WHERE sink = ?", arguments: [sink]) ?? 0
        }
    }
}
