import GRDB

extension SQLiteAlertStateStore {
    /// The schema's migrations, in order. Never edit a shipped migration: add a new one.
    ///
    /// - `v1-engine-state`: `pendingAlert` (one row per alert and beacon: strategy, firing time,
    ///   series start, occurrence, due time) and `alertHistory` (first firing, last delivery,
    ///   last delivered due time, delivery count). Times are nanoseconds since the epoch; a
    ///   beacon is its kind and three identity words.
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
        return migrator
    }

    /// The current schema version: the number of migrations.
    public static var schemaVersion: Int { migrator.migrations.count }

    private static func addBeaconColumns(to table: TableDefinition) {
        table.column("beaconKind", .integer).notNull()
        table.column("beaconHigh", .integer).notNull()
        table.column("beaconLow", .integer).notNull()
        table.column("beaconTail", .integer).notNull()
    }
}
