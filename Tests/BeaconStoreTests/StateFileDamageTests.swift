import BeaconAlertEngine
import BeaconCore
import BeaconStore
import Foundation
import GRDB
import Testing

/// A damaged state file stops the start with what to do; it is never replaced by an empty state.
/// A backup is a consistent copy that opens with the same state.
@Suite("The state file: damage is refused, backups are whole")
struct StateFileDamageTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("beacond-\(name)-\(UUID().uuidString).sqlite").path
    }

    static let beacon = BeaconID.iBeacon(uuidHigh: 1, uuidLow: 2, major: 3, minor: 4)
    static let firedAt = Timestamp(rfc3339: "2025-01-06T09:00:00Z")!

    /// A state file with one pending alert and some history.
    static func populated(_ path: String) throws {
        let store = try SQLiteAlertStateStore(path: path)
        let rule = AlertRule(id: "welcome", policy: try AlertPolicy(delay: .seconds(600)))
        var engine = try StoredAlertEngine(configuration: try AlertEngineConfiguration(rules: [rule]), store: store)
        _ = try engine.fire(StrategyFiring(alertID: "welcome", beacon: beacon, strategy: "time", time: firedAt), now: firedAt)
    }

    @Test("a file that is not a database is refused as damaged, and left as it was")
    func notADatabase() throws {
        let path = Self.temporaryPath("garbage")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: path))
        #expect {
            try SQLiteAlertStateStore(path: path)
        } throws: { error in
            guard case .damaged(let reported, _) = error as? AlertStoreError else { return false }
            return reported == path && "\(error)".contains("move the file away to start with an empty state")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    @Test("an empty (0-byte) file is refused as damaged, naming the file and the remedy; a missing one is created")
    func emptyFile() throws {
        let path = Self.temporaryPath("empty")
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect {
            try SQLiteAlertStateStore(path: path)
        } throws: { error in
            guard case .damaged(let reported, let detail) = error as? AlertStoreError else { return false }
            let message = "\(error)"
            return reported == path && detail.contains("empty (0 bytes)") && message.contains(path)
                && message.contains("restore the latest backup (`beacond state backup` writes them)")
                && message.contains("move the file away to start with an empty state")
        }
        // Left as it was: still empty, nothing beside it.
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 0)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        // A file that does not exist is created, whole, and opens again with its state.
        try FileManager.default.removeItem(atPath: path)
        try Self.populated(path)
        #expect(try SQLiteAlertStateStore(path: path).load().pending.count == 1)
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(name + ".new-") }
        #expect(leftovers.isEmpty)
    }

    @Test("a database whose pages are damaged is refused by the check at open")
    func damagedPages() throws {
        let path = Self.temporaryPath("damaged")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.populated(path)
        // Overwrite the middle of the file (past the header page) with garbage.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: 4096 + 100)
        handle.write(Data(repeating: 0xA5, count: Int(min(size - 4196, 6000))))
        try handle.close()
        #expect {
            try SQLiteAlertStateStore(path: path).load()
        } throws: { error in
            if case .damaged = error as? AlertStoreError { return true }
            return false
        }
    }

    @Test("a backup is a whole copy: it opens with the same pending alerts and history")
    func backup() throws {
        let path = Self.temporaryPath("live")
        let copy = Self.temporaryPath("copy")
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: copy)
        }
        try Self.populated(path)
        let live = try SQLiteAlertStateStore(path: path)
        try live.backup(to: copy)
        let restored = try SQLiteAlertStateStore(path: copy).load()
        #expect(restored == (try live.load()))
        #expect(restored.pending.count == 1)
    }
}
