import BeaconAlerting
import BeaconCore
import GRDB

/// An ``AlertStateStore`` in a SQLite file (through GRDB): the alert engine's state survives a
/// crash or a restart.
///
/// Each batch of changes is one transaction, committed before ``apply(_:)`` returns. The schema
/// is versioned by named migrations (``SQLiteAlertStateStore/migrator``) applied when the store
/// opens; a database migrated by a newer version is refused rather than misread.
public final class SQLiteAlertStateStore: AlertStateStore {
    private let database: DatabaseQueue

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    public init(path: String) throws {
        database = try DatabaseQueue(path: path)
        try Self.prepare(database, path: path)
    }

    /// A private in-memory database (for tests).
    public init() throws {
        database = try DatabaseQueue()
        try Self.prepare(database, path: ":memory:")
    }

    private static func prepare(_ database: DatabaseQueue, path: String) throws {
        let superseded = try database.read { db in try migrator.hasBeenSuperseded(db) }
        if superseded {
            let applied = try database.read { db in try migrator.appliedIdentifiers(db) }
            let known = Set(migrator.migrations)
            throw AlertStoreError.schemaTooNew(path: path, unknownMigrations: applied.filter { !known.contains($0) }.sorted())
        }
        try migrator.migrate(database)
    }

    /// The names of the migrations applied to this database, oldest first.
    public func appliedMigrations() throws -> [String] {
        try database.read { db in try Self.migrator.appliedMigrations(db) }
    }

    /// Reads every pending alert and history in one read transaction.
    public func load() throws -> AlertEngineState {
        try database.read { db in
            var state = AlertEngineState()
            for row in try Row.fetchAll(db, sql: "SELECT * FROM pendingAlert") {
                let alert = try Self.pendingAlert(from: row)
                state.pending[alert.key] = alert
            }
            for row in try Row.fetchAll(db, sql: "SELECT * FROM alertHistory") {
                let record = try Self.history(from: row)
                state.history[record.key] = record
            }
            return state
        }
    }

    /// Applies the batch in one write transaction, committed before returning.
    public func apply(_ changes: [AlertStateChange]) throws {
        try database.write { db in
            for change in changes {
                switch change {
                case .putPending(let alert): try Self.insert(alert, into: db)
                case .removePending(let key):
                    try db.execute(sql: """
                        DELETE FROM pendingAlert
                        WHERE alertID = ? AND beaconKind = ? AND beaconHigh = ? AND beaconLow = ? AND beaconTail = ?
                        """, arguments: StatementArguments([key.alertID] + BeaconColumns(key.beacon).values))
                case .putHistory(let record): try Self.insert(record, into: db)
                }
            }
        }
    }
}
