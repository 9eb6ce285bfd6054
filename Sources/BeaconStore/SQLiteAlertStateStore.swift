import BeaconAlertEngine
import BeaconCore
import BeaconSinks
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// An `AlertStateStore` in a SQLite file (through GRDB): the alert engine's state survives a
/// crash or a restart. The file is in write-ahead-log mode: `FILE-wal` and `FILE-shm` live next
/// to it and belong to it (copy it with ``backup(to:)``, never with `cp` while the daemon runs).
///
/// Each batch of changes is one transaction, committed before ``apply(_:)`` returns. With an
/// `OutboxConfiguration`, the same transaction also writes a copy of the step's events for
/// each sink (see ``SQLiteAlertStateStore/apply(_:emitting:)``): the store is then the
/// `Outbox` its dispatchers read and delete from. The schema
/// is versioned by named migrations (``AlertStateSchema/migrator``) applied when the store
/// opens; a database migrated by a newer version is refused rather than misread.
public final class SQLiteAlertStateStore: AlertStateStore {
    let database: DatabaseQueue
    /// The sinks that get a copy of every event, and their backlog bound.
    public let outboxConfiguration: OutboxConfiguration
    /// This process's exclusive hold on the file, when opened `exclusive` (the daemon, `forget`).
    let lock: StateFileLock?

    /// Opens (creating if needed) the database at `path`, checks it (`PRAGMA quick_check`) and
    /// brings its schema up to date. The file and its directory are checked first: both must be
    /// writable, and an existing file must not be empty.
    /// - Throws: ``AlertStoreError/damaged(path:detail:)`` when the file is not a SQLite database,
    ///   is damaged or is empty (0 bytes): the daemon never starts on an empty state in its place;
    ///   ``AlertStoreError/notWritable(path:reason:)`` when the file or its directory cannot be
    ///   written, before anything is decided on it; ``AlertStoreError/foreign(path:detail:)`` when
    ///   it is a SQLite database beacond did not make (no mark, no beacond schema);
    ///   ``AlertStoreError/inUse(path:holder:)`` when opened `exclusive` and another process holds
    ///   the file (``StateFileLock``).
    /// - Parameters:
    ///   - path: the file.
    ///   - outbox: the sinks that get a copy of every event.
    ///   - exclusive: take the file for this process alone while the store lives (the daemon does;
    ///     the `outbox` and `state` commands read beside it and do not).
    public init(path: String, outbox: OutboxConfiguration = .none, exclusive: Bool = false) throws {
        outboxConfiguration = outbox
        lock = exclusive ? try StateFileLock(statePath: path) : nil
        do {
            // Write-ahead logging: one fsync per commit (of the log) instead of four, and the
            // `beacond outbox` and `state` commands read while the daemon writes. Each commit is
            // still on the disk before `apply` returns (synchronous stays FULL).
            var configuration = Configuration()
            configuration.journalMode = .wal
            try AlertStateFile.prepare(at: path, configuration: configuration)
            let unmarked = try AlertStateFile.checkMark(path: path)
            database = try DatabaseQueue(path: path, configuration: configuration)
            let check = try database.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            guard check == ["ok"] else {
                throw AlertStoreError.damaged(path: path, detail: check.prefix(3).joined(separator: "; "))
            }
            if unmarked { try AlertStateFile.mark(database) }
        } catch let error as DatabaseError
            where error.resultCode.primaryResultCode == .SQLITE_NOTADB || error.resultCode.primaryResultCode == .SQLITE_CORRUPT
        {
            throw AlertStoreError.damaged(path: path, detail: error.message ?? "\(error.resultCode)")
        }
        try AlertStateSchema.bringUpToDate(database, path: path)
    }

    /// Copies the whole database to `destination` (SQLite's online backup: consistent even while
    /// the daemon writes), then flushes the copy to the disk before returning.
    public func backup(to destination: String) throws {
        let copy = try DatabaseQueue(path: destination)
        try database.backup(to: copy)
        try copy.close()
        let descriptor = open(destination, O_RDONLY)
        guard descriptor >= 0 else {
            throw AlertStoreError.backupFailed(path: destination, reason: "cannot reopen it to flush it")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw AlertStoreError.backupFailed(path: destination, reason: "fsync failed with errno \(errno)")
        }
    }

    /// A private in-memory database (for tests).
    public init(outbox: OutboxConfiguration = .none) throws {
        database = try DatabaseQueue()
        outboxConfiguration = outbox
        lock = nil
        try AlertStateSchema.bringUpToDate(database, path: ":memory:")
        try AlertStateFile.mark(database)
    }

    /// The strategies' per-beacon state is kept (a restart restores it).
    public var keepsStrategyState: Bool { true }

    /// The names of the migrations applied to this database, oldest first.
    public func appliedMigrations() throws -> [String] {
        try database.read { db in try AlertStateSchema.migrator.appliedMigrations(db) }
    }

    /// Reads every pending alert and history in one read transaction.
    public func load() throws -> AlertEngineState {
        try database.read { db in
            var state = AlertEngineState()
            for row in try Row.fetchAll(db, sql: "SELECT * FROM pendingAlert") {
                let alert = try AlertStateRows.pendingAlert(from: row)
                state.pending[alert.key] = alert
            }
            for row in try Row.fetchAll(db, sql: "SELECT * FROM alertHistory") {
                let record = try AlertStateRows.history(from: row)
                state.history[record.key] = record
            }
            for row in try Row.fetchAll(db, sql: "SELECT * FROM strategyState") {
                let saved = try AlertStateRows.strategyState(from: row)
                state.strategyStates[saved.key] = saved
            }
            if let time = try Int64.fetchOne(db, sql: "SELECT time FROM strategyClock WHERE id = 1") {
                state.strategyClock = Timestamp(nanosecondsSinceEpoch: time)
            }
            return state
        }
    }

    /// Applies the batch in one write transaction, committed before returning.
    public func apply(_ changes: [AlertStateChange]) throws {
        try database.write { db in try AlertStateRows.write(changes, into: db) }
    }

    /// Applies the batch and adds the events to every sink's outbox, in one write transaction.
    public func apply(_ changes: [AlertStateChange], emitting events: [RoutedEvent]) throws {
        try apply(changes, emitting: events, notices: [])
    }

    /// Applies the batch, adds the events to every sink's outbox and each notice to its sinks'
    /// outboxes, in one write transaction.
    public func apply(_ changes: [AlertStateChange], emitting events: [RoutedEvent], notices: [OutboundNotice]) throws {
        try database.write { db in
            try AlertStateRows.write(changes, into: db)
            try enqueue(events.map(OutboundEvent.init), into: db)
            for notice in notices { try enqueue([OutboundEvent(notice)], into: db, sinks: notice.sinks) }
        }
    }
}
