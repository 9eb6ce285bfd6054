import GRDB

/// The alert state file's schema: its named migrations, in order, applied when a store opens.
/// A database migrated by a newer beacond (a migration this one does not know) is refused rather
/// than misread.
public enum AlertStateSchema {
    /// The schema's migrations, in order. Never edit a shipped migration: add a new one.
    ///
    /// - `v1-engine-state`: `pendingAlert` (one row per alert and beacon: strategy, firing time,
    ///   series start, occurrence, due time) and `alertHistory` (first firing, last delivery,
    ///   last delivered due time, delivery count). Times are nanoseconds since the epoch; a
    ///   beacon is its kind and three identity words.
    /// - `v2-outbox`: `outbox` (one row per event and sink still to be confirmed: sink name,
    ///   idempotency key, JSON body, callback destination; `id` increases in write order) and
    ///   `outboxOverflow` (per sink, how many events a full backlog refused).
    /// - `v3-strategy-state`: `strategyState` (one row per alert, strategy part and beacon: the
    ///   key of the strategy that saved it and its encoded state), written in the same transaction
    ///   as the engine's changes; `strategyClock` (one row: the end of the latest cycle the
    ///   strategies had seen when their state was saved).
    /// - `v4-dead-letters`: `outbox.attempts` and `outbox.lastError` (failed attempts at an entry)
    ///   and `deadLetter` (per sink, the events it gave up on, with their attempts and last error,
    ///   until they are retried or dropped).
    /// - `v5-answers`: `pendingAlert.attempt` (0, or a reminder's number) and `heldUntil` (the
    ///   end of a `deliverWhen` wait) and, in `alertHistory`,
    ///   the latest delivered instance (`instanceDue`, `instanceStrategy`, `attempts`), its
    ///   answer (`answerKind`, `answerDue`, `answeredBy`, `answeredAt`) and `suppressedUntil`.
    /// - `v6-earlier-instances`: `alertHistory.earlierInstances`, the due times of the instances
    ///   delivered before the latest (little-endian 64-bit nanoseconds, oldest first; `NULL`
    ///   when none). Histories written before it remember none: an answer to an instance
    ///   earlier than their latest is told it never was (404) rather than superseded (409).
    /// - `v7-latency-origin`: `outbox.origin` and `outbox.alertID` (and the dead letters'): where
    ///   a delivered alert's latency counts from, and its alert.
    /// - `v8-quiet-first-start`: `alertHistory.quietUntilGone` (1 while a `firstStart: quiet`
    ///   alert keeps quiet for a beacon that was in range at its first start).
    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-engine-state") { db in
            try db.create(table: "pendingAlert") { table in
                table.column("alertID", .text).notNull()
                addBeaconColumns(to: table)
                table.column("strategy", .text).notNull()
                table.column("firedAt", .integer).notNull()
                table.column("seriesStart", .integer).notNull()
                table.column("occurrence", .integer).notNull()
                table.column("dueAt", .integer).notNull()
                table.primaryKey(["alertID", "beaconKind", "beaconHigh", "beaconLow", "beaconTail"])
            }
            try db.create(index: "pendingAlertByDue", on: "pendingAlert", columns: ["dueAt"])
            try db.create(table: "alertHistory") { table in
                table.column("alertID", .text).notNull()
                addBeaconColumns(to: table)
                table.column("firstFiringAt", .integer)
                table.column("lastDeliveredAt", .integer)
                table.column("lastDeliveredDue", .integer)
                table.column("deliveries", .integer).notNull()
                table.primaryKey(["alertID", "beaconKind", "beaconHigh", "beaconLow", "beaconTail"])
            }
        }
        migrator.registerMigration("v2-outbox") { db in
            try db.create(table: "outbox") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("sink", .text).notNull()
                table.column("eventKey", .text).notNull()
                table.column("body", .text).notNull()
                table.column("destination", .text)
            }
            try db.create(index: "outboxBySink", on: "outbox", columns: ["sink", "id"])
            try db.create(table: "outboxOverflow") { table in
                table.column("sink", .text).primaryKey()
                table.column("dropped", .integer).notNull()
            }
        }
        migrator.registerMigration("v3-strategy-state") { db in
            try db.create(table: "strategyState") { table in
                table.column("alertID", .text).notNull()
                table.column("part", .text).notNull()
                addBeaconColumns(to: table)
                table.column("strategy", .text).notNull()
                table.column("state", .blob).notNull()
                table.primaryKey(["alertID", "part", "beaconKind", "beaconHigh", "beaconLow", "beaconTail"])
            }
            try db.create(table: "strategyClock") { table in
                table.column("id", .integer).primaryKey()
                table.column("time", .integer).notNull()
            }
        }
        migrator.registerMigration("v4-dead-letters") { db in
            try db.alter(table: "outbox") { table in
                table.add(column: "attempts", .integer).notNull().defaults(to: 0)
                table.add(column: "lastError", .text)
            }
            try db.create(table: "deadLetter") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("sink", .text).notNull()
                table.column("eventKey", .text).notNull()
                table.column("body", .text).notNull()
                table.column("destination", .text)
                table.column("attempts", .integer).notNull()
                table.column("lastError", .text).notNull()
            }
            try db.create(index: "deadLetterBySink", on: "deadLetter", columns: ["sink", "id"])
        }
        migrator.registerMigration("v5-answers") { db in
            try db.alter(table: "pendingAlert") { table in
                table.add(column: "attempt", .integer).notNull().defaults(to: 0)
                table.add(column: "heldUntil", .integer)
            }
            try db.alter(table: "alertHistory") { table in
                table.add(column: "instanceDue", .integer)
                table.add(column: "instanceStrategy", .text)
                table.add(column: "attempts", .integer).notNull().defaults(to: 0)
                table.add(column: "answerKind", .text)
                table.add(column: "answerDue", .integer)
                table.add(column: "answeredBy", .text)
                table.add(column: "answeredAt", .integer)
                table.add(column: "suppressedUntil", .integer)
            }
        }
        migrator.registerMigration("v6-earlier-instances") { db in
            try db.alter(table: "alertHistory") { table in table.add(column: "earlierInstances", .blob) }
        }
        // A delivered alert's latency origin (ns since the epoch) and alert id, kept with it.
        migrator.registerMigration("v7-latency-origin") { db in
            for name in ["outbox", "deadLetter"] {
                try db.alter(table: name) { table in
                    table.add(column: "origin", .integer)
                    table.add(column: "alertID", .text)
                }
            }
        }
        migrator.registerMigration("v8-quiet-first-start") { db in
            try db.alter(table: "alertHistory") { table in
                table.add(column: "quietUntilGone", .integer).notNull().defaults(to: 0)
            }
        }
        return migrator
    }

    /// The current schema version: the number of migrations.
    public static var version: Int { migrator.migrations.count }

    /// Applies the migrations `database` lacks.
    /// - Throws: ``AlertStoreError/schemaTooNew(path:unknownMigrations:)`` when it holds a
    ///   migration this version does not know (`path` names the file in the message).
    static func bringUpToDate(_ database: DatabaseQueue, path: String) throws {
        let superseded = try database.read { db in try migrator.hasBeenSuperseded(db) }
        if superseded {
            let applied = try database.read { db in try migrator.appliedIdentifiers(db) }
            let known = Set(migrator.migrations)
            throw AlertStoreError.schemaTooNew(path: path, unknownMigrations: applied.filter { !known.contains($0) }.sorted())
        }
        try migrator.migrate(database)
    }

    private static func addBeaconColumns(to table: TableDefinition) {
        table.column("beaconKind", .integer).notNull()
        table.column("beaconHigh", .integer).notNull()
        table.column("beaconLow", .integer).notNull()
        table.column("beaconTail", .integer).notNull()
    }
}
