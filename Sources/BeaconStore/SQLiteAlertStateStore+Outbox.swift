import BeaconAlertEngine
import BeaconCore
import BeaconSinks
import GRDB

extension SQLiteAlertStateStore: Outbox {
    /// Adds a copy of each event for every configured sink, within the caller's transaction;
    /// past a sink's backlog bound the event is spilled to that sink's dead letters (never
    /// attempted) and counted.
    func enqueue(_ events: [OutboundEvent], into db: Database, sinks: [String]? = nil) throws {
        guard !events.isEmpty else { return }
        for sink in sinks?.filter(outboxConfiguration.sinks.contains) ?? outboxConfiguration.sinks {
            var backlog =
                try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM outbox WHERE sink = ?"), arguments: [sink]) ?? 0
            var dropped = 0
            for event in events where outboxConfiguration.takes(event, sink: sink) {
                if backlog >= outboxConfiguration.maxBacklog {
                    try db.executeCached(
                        sql: """
                            INSERT INTO deadLetter (sink, eventKey, body, destination, origin, alertID, attempts, lastError)
                            VALUES (?, ?, ?, ?, ?, ?, 0, ?)
                            """,
                        arguments: [
                            sink, event.key, event.body, event.destination, event.origin?.nanosecondsSinceEpoch, event.alertID,
                            outboxConfiguration.spillError,
                        ])
                    dropped += 1
                    continue
                }
                try db.executeCached(
                    sql: "INSERT INTO outbox (sink, eventKey, body, destination, origin, alertID) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [
                        sink, event.key, event.body, event.destination, event.origin?.nanosecondsSinceEpoch, event.alertID,
                    ])
                backlog += 1
            }
            if dropped > 0 {
                try db.executeCached(
                    sql: """
                        INSERT INTO outboxOverflow (sink, dropped) VALUES (?, ?)
                        ON CONFLICT(sink) DO UPDATE SET dropped = dropped + excluded.dropped
                        """, arguments: [sink, dropped])
            }
        }
    }

    /// Adds `events` for the named sinks only, in one transaction.
    public func enqueue(_ events: [OutboundEvent], sinks: [String]) throws {
        try database.write { db in try enqueue(events, into: db, sinks: sinks) }
    }

    /// The oldest `limit` entries of `sink`.
    public func pending(sink: String, limit: Int) throws -> [OutboxEntry] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outbox WHERE sink = ? ORDER BY id LIMIT ?", arguments: [sink, limit])
                .map { row in
                    OutboxEntry(
                        id: row["id"], sink: row["sink"],
                        event: Self.outboundEvent(row))
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

    /// Counts a failed attempt at entry `id`, keeping its error.
    public func recordFailure(_ id: Int64, error: String) throws -> Int {
        try database.write { db in
            try db.execute(
                sql: "UPDATE outbox SET attempts = attempts + 1, lastError = ? WHERE id = ?", arguments: [error, id])
            return try Int.fetchOne(db, sql: "SELECT attempts FROM outbox WHERE id = ?", arguments: [id]) ?? 0
        }
    }

    /// Moves entry `id` to the dead letters, in one transaction.
    public func deadLetter(_ id: Int64, error: String) throws {
        try deadLetter(id, error: error, notice: nil)
    }

    /// Moves entry `id` to the dead letters and adds `notice` for its sinks, in one transaction.
    public func deadLetter(_ id: Int64, error: String, notice: OutboundNotice?) throws {
        try database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO deadLetter (sink, eventKey, body, destination, origin, alertID, attempts, lastError)
                    SELECT sink, eventKey, body, destination, origin, alertID, attempts, ? FROM outbox WHERE id = ?
                    """, arguments: [error, id])
            try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [id])
            if let notice { try enqueue([OutboundEvent(notice)], into: db, sinks: notice.sinks) }
        }
    }

    /// The dead letters of `sink`, oldest first.
    public func deadLetters(sink: String) throws -> [DeadLetter] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM deadLetter WHERE sink = ? ORDER BY id", arguments: [sink]).map { row in
                DeadLetter(
                    id: row["id"], sink: row["sink"],
                    event: Self.outboundEvent(row),
                    attempts: row["attempts"], lastError: row["lastError"])
            }
        }
    }

    /// Moves dead letters back to the end of the outbox (all of `sink`'s when `ids` is nil).
    public func retryDeadLetters(sink: String, ids: [Int64]?) throws -> Int {
        try database.write { db in
            let chosen = try Self.deadLetterIDs(sink: sink, ids: ids, in: db)
            for id in chosen {
                try db.execute(
                    sql: """
                        INSERT INTO outbox (sink, eventKey, body, destination, origin, alertID)
                        SELECT sink, eventKey, body, destination, origin, alertID FROM deadLetter WHERE id = ?
                        """, arguments: [id])
                try db.execute(sql: "DELETE FROM deadLetter WHERE id = ?", arguments: [id])
            }
            return chosen.count
        }
    }

    /// Forgets dead letters (all of `sink`'s when `ids` is nil).
    public func dropDeadLetters(sink: String, ids: [Int64]?) throws -> Int {
        try database.write { db in
            let chosen = try Self.deadLetterIDs(sink: sink, ids: ids, in: db)
            for id in chosen { try db.execute(sql: "DELETE FROM deadLetter WHERE id = ?", arguments: [id]) }
            return chosen.count
        }
    }

    /// Retention: forgets every sink's dead letters whose event is older than `cutoff`.
    public func dropDeadLetters(eventsBefore cutoff: Timestamp) throws -> Int {
        try database.write { db in
            var old: [Int64] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT id, eventKey, body FROM deadLetter")
            while let row = try rows.next() {
                if let time = OutboundEvent.time(ofBody: row["body"], key: row["eventKey"]), time < cutoff {
                    old.append(row["id"])
                }
            }
            for id in old { try db.execute(sql: "DELETE FROM deadLetter WHERE id = ?", arguments: [id]) }
            return old.count
        }
    }

    private static func deadLetterIDs(sink: String, ids: [Int64]?, in db: Database) throws -> [Int64] {
        let all = try Int64.fetchAll(db, sql: "SELECT id FROM deadLetter WHERE sink = ? ORDER BY id", arguments: [sink])
        guard let ids else { return all }
        return all.filter(ids.contains)
    }

    /// The event of an outbox or dead-letter row.
    static func outboundEvent(_ row: Row) -> OutboundEvent {
        let origin: Int64? = row["origin"]
        return OutboundEvent(
            key: row["eventKey"], body: row["body"], destination: row["destination"],
            origin: origin.map(Timestamp.init(nanosecondsSinceEpoch:)), alertID: row["alertID"])
    }
}
