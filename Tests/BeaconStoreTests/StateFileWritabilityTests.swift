import BeaconStore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A state file that cannot be written is refused when the store opens, saying which file and
/// what to do, instead of failing at the first write after the daemon has started. Tests run as
/// root, whom permission bits do not stop: a read-only file system (a tmpfs mounted read-only)
/// and a parent that is a file are what refuse a write to root too.
@Suite("The state file: one that cannot be written is refused at open")
struct StateFileWritabilityTests {
    /// Mounting a tmpfs needs root (CI runs as root); elsewhere the tests say why they did not run.
    static let canMount: Bool = getuid() == 0

    static func temporaryDirectory(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Whether `error` refuses `path` as not writable, with `reason` in its message.
    static func refusesAsNotWritable(_ error: any Error, path: String, reason: String) -> Bool {
        guard case .notWritable(let reported, _) = error as? AlertStoreError else { return false }
        let message = "\(error)"
        return reported == path && message.contains(path) && message.contains(reason)
            && message.contains("or set state: to a file in a writable directory")
    }

    @Test("a state file whose parent is a file is refused, naming it")
    func parentIsAFile() throws {
        let directory = try Self.temporaryDirectory("parent-file")
        defer { try? FileManager.default.removeItem(at: directory) }
        let parent = directory.appendingPathComponent("not-a-directory").path
        #expect(FileManager.default.createFile(atPath: parent, contents: Data("x".utf8)))
        let path = parent + "/state.sqlite"
        #expect {
            try SQLiteAlertStateStore(path: path)
        } throws: { error in
            Self.refusesAsNotWritable(error, path: path, reason: "\(parent) is not a directory")
        }
    }

    @Test("a state file in a directory that does not exist is refused, saying to create it")
    func missingDirectory() throws {
        let directory = try Self.temporaryDirectory("no-directory")
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing").path
        let path = missing + "/state.sqlite"
        #expect {
            try SQLiteAlertStateStore(path: path)
        } throws: { error in
            Self.refusesAsNotWritable(error, path: path, reason: "its directory \(missing) does not exist; create it")
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test(
        "a state file on a read-only file system is refused at open, and left as it was",
        .enabled(if: canMount, "needs root to mount a tmpfs read-only"))
    func readOnlyFileSystem() throws {
        let directory = try Self.temporaryDirectory("read-only")
        let mountPoint = directory.appendingPathComponent("ro").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        try #require(mount("tmpfs", mountPoint, "tmpfs", 0, "size=4m") == 0, "mount: \(String(cString: strerror(errno)))")
        defer {
            _ = umount2(mountPoint, 2) // MNT_DETACH
            try? FileManager.default.removeItem(at: directory)
        }
        let path = mountPoint + "/state.sqlite"
        try StateFileDamageTests.populated(path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let remount = UInt(MS_REMOUNT) | UInt(MS_RDONLY)
        try #require(mount(nil, mountPoint, nil, remount, nil) == 0, "remount: \(String(cString: strerror(errno)))")
        #expect {
            try SQLiteAlertStateStore(path: path)
        } throws: { error in
            Self.refusesAsNotWritable(error, path: path, reason: "Read-only file system")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test(
        "a writable state file in a read-only directory is refused at open: SQLite could not add its log",
        .enabled(if: canMount, "needs root to mount a tmpfs read-only and bind a file into it"))
    func readOnlyDirectory() throws {
        let directory = try Self.temporaryDirectory("read-only-directory")
        let mountPoint = directory.appendingPathComponent("ro").path
        let outside = directory.appendingPathComponent("outside.sqlite").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        try StateFileDamageTests.populated(outside)
        try #require(mount("tmpfs", mountPoint, "tmpfs", 0, "size=1m") == 0, "mount: \(String(cString: strerror(errno)))")
        let path = mountPoint + "/state.sqlite"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let remount = UInt(MS_REMOUNT) | UInt(MS_RDONLY)
        try #require(mount(nil, mountPoint, nil, remount, nil) == 0, "remount: \(String(cString: strerror(errno)))")
        // The file itself is writable (a writable file bound over the read-only one); its directory is not.
        try #require(mount(outside, path, nil, UInt(MS_BIND), nil) == 0, "bind: \(String(cString: strerror(errno)))")
        defer {
            _ = umount2(path, 2) // MNT_DETACH
            _ = umount2(mountPoint, 2)
            try? FileManager.default.removeItem(at: directory)
        }
        #expect(access(path, W_OK) == 0)
        #expect {
            try SQLiteAlertStateStore(path: path)
        } throws: { error in
            Self.refusesAsNotWritable(error, path: path, reason: "its directory \(mountPoint) does not take new files")
        }
    }

    @Test(
        "a read-only state file in a writable directory is refused at open, not at the first write",
        .enabled(if: canMount, "needs root to bind the file read-only"))
    func readOnlyFile() throws {
        let directory = try Self.temporaryDirectory("read-only-file")
        let path = directory.appendingPathComponent("state.sqlite").path
        try StateFileDamageTests.populated(path)
        // The file bound over itself, read-only: even root cannot write it.
        try #require(mount(path, path, nil, UInt(MS_BIND), nil) == 0, "bind: \(String(cString: strerror(errno)))")
        defer {
            _ = umount2(path, 2) // MNT_DETACH
            try? FileManager.default.removeItem(at: directory)
        }
        let readOnly = UInt(MS_REMOUNT) | UInt(MS_BIND) | UInt(MS_RDONLY)
        try #require(mount(nil, path, nil, readOnly, nil) == 0, "remount: \(String(cString: strerror(errno)))")
        #expect {
            try SQLiteAlertStateStore(path: path)
        } throws: { error in
            Self.refusesAsNotWritable(error, path: path, reason: "\(path) does not open for writing (Read-only file system)")
        }
    }
}
