import BeaconAlertEngine
import BeaconCore
import Foundation
import GRDB

/// The alert engine's state as rows of the state file: each change of a batch written as the
/// statement it takes, and each row read back as the value it holds (a row that cannot be read
/// is ``AlertStoreError/corruptRow(table:reason:)``, never a guess).
enum AlertStateRows {
    /// Writes `changes` in order into `db` (inside the caller's transaction).
    static func write(_ changes: [AlertStateChange], into db: Database) throws {
        for change in changes {
            switch change {
            case .putPending(let alert): try Self.insert(alert, into: db)
            case .removePending(let key): try delete(from: "pendingAlert", alertID: key.alertID, beacon: key.beacon, into: db)
            case .putHistory(let record): try Self.insert(record, into: db)
            case .removeHistory(let key): try delete(from: "alertHistory", alertID: key.alertID, beacon: key.beacon, into: db)
            case .putStrategyState(let saved): try Self.insert(saved, into: db)
            case .removeStrategyState(let key):
                try delete(from: "strategyState", alertID: key.alertID, part: key.part, beacon: key.beacon, into: db)
            case .removeStrategyStates(let alertID):
                try db.execute(sql: "DELETE FROM strategyState WHERE alertID = ?", arguments: [alertID])
            case .putStrategyClock(let time):
                try db.execute(
                    sql: "INSERT OR REPLACE INTO strategyClock (id, time) VALUES (1, ?)",
                    arguments: [time.nanosecondsSinceEpoch])
            }
        }
    }

    /// Deletes the row of `alertID` and `beacon` (and the strategy's `part`, in `strategyState`)
    /// from `table`, one of this schema's.
    private static func delete(
        from table: String, alertID: String, part: String? = nil, beacon: BeaconID, into db: Database
    ) throws {
        var arguments: [any DatabaseValueConvertible] = [alertID]
        if let part { arguments.append(part) }
        let partColumn = part == nil ? "" : " AND part = ?"
        try db.execute(
            sql: """
                DELETE FROM \(table)
                WHERE alertID = ?\(partColumn) AND beaconKind = ? AND beaconHigh = ? AND beaconLow = ? AND beaconTail = ?
                """,
            arguments: StatementArguments(arguments + BeaconColumns(beacon).values))
    }

    static func insert(_ alert: PendingAlert, into db: Database) throws {
        try db.executeCached(
            sql: """
                INSERT OR REPLACE INTO pendingAlert
                  (alertID, beaconKind, beaconHigh, beaconLow, beaconTail, strategy, firedAt, seriesStart, occurrence, dueAt,
                   attempt, heldUntil)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: StatementArguments(
                [alert.key.alertID] + BeaconColumns(alert.key.beacon).values + [
                    alert.strategy, alert.firedAt.nanosecondsSinceEpoch, alert.seriesStart.nanosecondsSinceEpoch,
                    Int64(alert.occurrence), alert.dueAt.nanosecondsSinceEpoch, Int64(alert.attempt),
                    alert.heldUntil?.nanosecondsSinceEpoch,
                ]))
    }

    static func insert(_ record: AlertHistory, into db: Database) throws {
        try db.executeCached(
            sql: """
                INSERT OR REPLACE INTO alertHistory
                  (alertID, beaconKind, beaconHigh, beaconLow, beaconTail, firstFiringAt, lastDeliveredAt, lastDeliveredDue, deliveries,
                   instanceDue, instanceStrategy, attempts, answerKind, answerDue, answeredBy, answeredAt, suppressedUntil,
                   earlierInstances, quietUntilGone)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: StatementArguments(
                [record.key.alertID] + BeaconColumns(record.key.beacon).values + [
                    record.firstFiringAt?.nanosecondsSinceEpoch, record.lastDeliveredAt?.nanosecondsSinceEpoch,
                    record.lastDeliveredDue?.nanosecondsSinceEpoch, Int64(record.deliveries),
                    record.instanceDue?.nanosecondsSinceEpoch, record.instanceStrategy, Int64(record.attempts),
                    record.answer?.kind.rawValue, record.answer?.instanceDue.nanosecondsSinceEpoch, record.answer?.by,
                    record.answer?.at.nanosecondsSinceEpoch, record.suppressedUntil?.nanosecondsSinceEpoch,
                    timesBlob(record.earlierInstanceDues), Int64(record.quietUntilGone ? 1 : 0),
                ]))
    }

    static func key(from row: Row, table: String) throws -> AlertKey {
        let columns = BeaconColumns(
            kind: row["beaconKind"], high: row["beaconHigh"], low: row["beaconLow"], tail: row["beaconTail"])
        guard let beacon = columns.beacon else {
            throw AlertStoreError.corruptRow(table: table, reason: "unknown beacon kind \(columns.kind)")
        }
        return AlertKey(alertID: row["alertID"], beacon: beacon)
    }

    static func pendingAlert(from row: Row) throws -> PendingAlert {
        PendingAlert(
            key: try key(from: row, table: "pendingAlert"), strategy: row["strategy"],
            firedAt: Timestamp(nanosecondsSinceEpoch: row["firedAt"]),
            seriesStart: Timestamp(nanosecondsSinceEpoch: row["seriesStart"]),
            occurrence: row["occurrence"], dueAt: Timestamp(nanosecondsSinceEpoch: row["dueAt"]), attempt: row["attempt"],
            heldUntil: (row["heldUntil"] as Int64?).map { Timestamp(nanosecondsSinceEpoch: $0) })
    }

    static func history(from row: Row) throws -> AlertHistory {
        func time(_ column: String) -> Timestamp? {
            (row[column] as Int64?).map { Timestamp(nanosecondsSinceEpoch: $0) }
        }
        var answer: AlertAnswer?
        if let text: String = row["answerKind"] {
            guard let kind = AlertAnswer.Kind(rawValue: text), let due = time("answerDue"), let at = time("answeredAt")
            else {
                throw AlertStoreError.corruptRow(
                    table: "alertHistory", reason: "an answer '\(text)' without its instance or time")
            }
            answer = AlertAnswer(kind: kind, instanceDue: due, by: row["answeredBy"] ?? "", at: at)
        }
        var earlier: [Timestamp] = []
        if let blob: Data = row["earlierInstances"] {
            guard let times = times(fromBlob: blob) else {
                throw AlertStoreError.corruptRow(
                    table: "alertHistory", reason: "earlierInstances of \(blob.count) bytes, not a multiple of 8")
            }
            earlier = times
        }
        return AlertHistory(
            key: try key(from: row, table: "alertHistory"), firstFiringAt: time("firstFiringAt"),
            lastDeliveredAt: time("lastDeliveredAt"), lastDeliveredDue: time("lastDeliveredDue"),
            deliveries: row["deliveries"], instanceDue: time("instanceDue"), instanceStrategy: row["instanceStrategy"],
            attempts: row["attempts"], answer: answer, suppressedUntil: time("suppressedUntil"),
            earlierInstanceDues: earlier, quietUntilGone: (row["quietUntilGone"] as Int64? ?? 0) != 0)
    }

    /// `times` as little-endian 64-bit nanoseconds, one after another; `nil` when there are none.
    static func timesBlob(_ times: [Timestamp]) -> Data? {
        guard !times.isEmpty else { return nil }
        var data = Data(capacity: times.count * 8)
        for time in times {
            withUnsafeBytes(of: time.nanosecondsSinceEpoch.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    /// The times of a ``timesBlob(_:)``; `nil` when its length is not a multiple of 8.
    static func times(fromBlob blob: Data) -> [Timestamp]? {
        guard blob.count % 8 == 0 else { return nil }
        var times: [Timestamp] = []
        times.reserveCapacity(blob.count / 8)
        var offset = blob.startIndex
        while offset < blob.endIndex {
            var raw: Int64 = 0
            for index in 0..<8 { raw |= Int64(blob[offset + index]) << (8 * index) }
            times.append(Timestamp(nanosecondsSinceEpoch: raw))
            offset += 8
        }
        return times
    }

    static func insert(_ saved: SavedStrategyState, into db: Database) throws {
        try db.executeCached(
            sql: """
                INSERT OR REPLACE INTO strategyState
                  (alertID, part, beaconKind, beaconHigh, beaconLow, beaconTail, strategy, state)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: StatementArguments(
                [saved.key.alertID, saved.key.part] + BeaconColumns(saved.key.beacon).values + [
                    saved.strategy, Data(saved.state),
                ]))
    }

    static func strategyState(from row: Row) throws -> SavedStrategyState {
        let key = try key(from: row, table: "strategyState")
        let bytes: Data = row["state"]
        return SavedStrategyState(
            key: SavedStrategyState.Key(alertID: key.alertID, part: row["part"], beacon: key.beacon),
            strategy: row["strategy"], state: Array(bytes))
    }
}
