import BeaconAlertEngine
import BeaconCore
import BeaconStore
import Foundation
import GRDB
import Testing

/// A state file is recognised by beacond's own mark (`PRAGMA application_id`): an SQLite file of
/// another program set as `state:` is refused, not adopted — adopting it would send every alert
/// again as new (issue 37).
@Suite("The state file: beacond's mark")
struct StateFileMarkTests {
    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    static func applicationID(_ path: String) throws -> Int32? {
        let database = try DatabaseQueue(path: path)
        defer { try? database.close() }
        return try database.read { db in try Int32.fetchOne(db, sql: "PRAGMA application_id") }
    }

    @Test("a state file beacond makes carries its mark")
    func marked() throws {
        let path = StateFileDamageTests.temporaryPath("marked")
        defer { Self.remove(path) }
        try StateFileDamageTests.populated(path)
        #expect(try Self.applicationID(path) == AlertStateFile.applicationID)
        _ = try SQLiteAlertStateStore(path: path)
    }

    @Test("another program's SQLite file is refused, naming it and the remedy, and left as it was")
    func anotherProgramsFile() throws {
        let path = StateFileDamageTests.temporaryPath("foreign")
        defer { Self.remove(path) }
        do {
            let database = try DatabaseQueue(path: path)
            try database.write { db in
                try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
                try db.execute(sql: "INSERT INTO notes (text) VALUES ('keep me')")
            }
            try database.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            try SQLiteAlertStateStore(path: path)
        } throws: { error in
            guard case .foreign(let reported, let detail) = error as? AlertStoreError else { return false }
            return reported == path && detail.contains("notes") && "\(error)".contains("Set state: to a path of its own")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a file with another program's application_id is refused, even with beacond's tables")
    func anotherApplicationID() throws {
        let path = StateFileDamageTests.temporaryPath("other-id")
        defer { Self.remove(path) }
        try StateFileDamageTests.populated(path)
        do {
            let database = try DatabaseQueue(path: path)
            try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA application_id = 1234") }
            try database.close()
        }
        #expect {
            try SQLiteAlertStateStore(path: path)
        } throws: { error in
            guard case .foreign(_, let detail) = error as? AlertStoreError else { return false }
            return detail.contains("0x4d2")
        }
    }

    @Test("a file of a beacond from before the mark (its migrations, no mark) opens with its state and gets the mark")
    func beforeTheMark() throws {
        let path = StateFileDamageTests.temporaryPath("before-mark")
        defer { Self.remove(path) }
        try StateFileDamageTests.populated(path)
        do {
            let database = try DatabaseQueue(path: path)
            try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA application_id = 0") }
            try database.close()
        }
        #expect(try Self.applicationID(path) == 0)
        let store = try SQLiteAlertStateStore(path: path)
        #expect(try store.load().pending.count == 1)
        #expect(try Self.applicationID(path) == AlertStateFile.applicationID)
    }
}
