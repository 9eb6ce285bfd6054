import BeaconCore
import GRDB

extension SQLiteAlertStateStore {
    /// What ``forget(_:)`` erased, per table.
    public struct ForgetReport: Sendable, Equatable {
        /// Scheduled or reminding alert instances.
        public var pendingAlerts = 0
        /// Alert histories (deliveries, answers, cooldowns).
        public var histories = 0
        /// Strategies' saved per-beacon state.
        public var strategyStates = 0
        /// Events waiting in the sinks' outboxes.
        public var outboxEvents = 0
        /// Events the sinks gave up on.
        public var deadLetters = 0

        /// All rows erased.
        public var total: Int { pendingAlerts + histories + strategyStates + outboxEvents + deadLetters }
    }

    /// Erases everything the state file keeps about `beacons` — their pending alerts, alert
    /// histories, strategies' state, and the events about them waiting in the outboxes or kept as
    /// dead letters — in one transaction, then rewrites the file (`VACUUM`, after a checkpoint
    /// that empties the write-ahead log) so that no freed page still holds them.
    ///
    /// Events are found by their key (`alert|beacon|kind|due`). Hold the ``StateFileLock`` first:
    /// a daemon running on the file keeps its state in memory and would write it back.
    public func forget(_ beacons: [BeaconID]) throws -> ForgetReport {
        var report = ForgetReport()
        try database.write { db in
            for beacon in beacons {
                let columns = BeaconColumns(beacon).values
                let match = "beaconKind = ? AND beaconHigh = ? AND beaconLow = ? AND beaconTail = ?"
                try db.execute(sql: "DELETE FROM pendingAlert WHERE \(match)", arguments: StatementArguments(columns))
                report.pendingAlerts += db.changesCount
                try db.execute(sql: "DELETE FROM alertHistory WHERE \(match)", arguments: StatementArguments(columns))
                report.histories += db.changesCount
                try db.execute(sql: "DELETE FROM strategyState WHERE \(match)", arguments: StatementArguments(columns))
                report.strategyStates += db.changesCount
                // `instr`, not LIKE: an identity may hold `_`, which LIKE takes for any character.
                let key = "|\(beacon)|"
                try db.execute(sql: "DELETE FROM outbox WHERE instr(eventKey, ?) > 0", arguments: [key])
                report.outboxEvents += db.changesCount
                try db.execute(sql: "DELETE FROM deadLetter WHERE instr(eventKey, ?) > 0", arguments: [key])
                report.deadLetters += db.changesCount
            }
        }
        try database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            try db.execute(sql: "VACUUM")
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        return report
    }
}
