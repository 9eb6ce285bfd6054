import BeaconAlertEngine
import BeaconCore
import Foundation
import GRDB

extension SQLiteAlertStateStore {
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
                   instanceDue, instanceStrategy, attempts, answerKind, answerDue, answeredBy, answeredAt, suppressedUntil)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: StatementArguments(
                [record.key.alertID] + BeaconColumns(record.key.beacon).values + [
                    record.firstFiringAt?.nanosecondsSinceEpoch, record.lastDeliveredAt?.nanosecondsSinceEpoch,
                    record.lastDeliveredDue?.nanosecondsSinceEpoch, Int64(record.deliveries),
                    record.instanceDue?.nanosecondsSinceEpoch, record.instanceStrategy, Int64(record.attempts),
                    record.answer?.kind.rawValue, record.answer?.instanceDue.nanosecondsSinceEpoch, record.answer?.by,
                    record.answer?.at.nanosecondsSinceEpoch, record.suppressedUntil?.nanosecondsSinceEpoch,
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
        return AlertHistory(
            key: try key(from: row, table: "alertHistory"), firstFiringAt: time("firstFiringAt"),
            lastDeliveredAt: time("lastDeliveredAt"), lastDeliveredDue: time("lastDeliveredDue"),
            deliveries: row["deliveries"], instanceDue: time("instanceDue"), instanceStrategy: row["instanceStrategy"],
            attempts: row["attempts"], answer: answer, suppressedUntil: time("suppressedUntil"))
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
