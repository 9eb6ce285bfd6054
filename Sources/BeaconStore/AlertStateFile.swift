import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// The alert state file on the disk, before and around SQLite: the checks that say what is wrong
/// with a file or its directory before anything is decided on it, its creation (whole, under a
/// temporary name, then renamed), and beacond's mark in its header that tells it from another
/// program's database. ``SQLiteAlertStateStore`` opens the file through it; `beacond
/// check-config` runs ``check(at:)`` alone.
public enum AlertStateFile {
    /// Checks the state file before SQLite opens it, and creates it when it does not exist.
    ///
    /// - The directory must take new files (SQLite adds `FILE-wal` and `FILE-shm` next to the
    ///   file): checked by creating and removing a file there, which holds for root too, whom
    ///   permission bits do not stop.
    /// - An existing file must open for writing, and must not be empty: SQLite takes a 0-byte
    ///   file for a new database, but a state file beacond made always has its header (it is
    ///   created whole under a temporary name, then renamed), so an empty one was truncated or
    ///   replaced, and starting on it would send every earlier event again.
    /// - A file that does not exist is created with the current schema, then renamed into place.
    /// - Throws: ``AlertStoreError/notWritable(path:reason:)``, ``AlertStoreError/damaged(path:detail:)``.
    static func prepare(at path: String, configuration: Configuration) throws {
        if try !check(at: path) {
            try Self.createFresh(at: path, directory: Self.directory(of: path), configuration: configuration)
        }
    }

    /// What opening the state file checks, without creating the file
    /// (`beacond check-config`): its directory takes new files (a probe is made and removed
    /// there), and an existing file is a non-empty regular file that opens for writing.
    /// - Returns: whether the file exists.
    /// - Throws: ``AlertStoreError/notWritable(path:reason:)``, ``AlertStoreError/damaged(path:detail:)``.
    @discardableResult
    public static func check(at path: String) throws -> Bool {
        let directory = Self.directory(of: path)
        try Self.checkDirectoryTakesFiles(directory, for: path)
        var status = stat()
        guard stat(path, &status) == 0 else {
            guard errno == ENOENT else { throw AlertStoreError.notWritable(path: path, reason: Self.reason(errno)) }
            return false
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw AlertStoreError.notWritable(path: path, reason: "it is not a regular file")
        }
        guard status.st_size > 0 else {
            throw AlertStoreError.damaged(
                path: path,
                detail: "the file is empty (0 bytes); a state file beacond made always has its header, so this one "
                    + "was truncated or replaced, and starting on it would send every earlier event again")
        }
        // Asked of the file system, not by opening them: a process that has the database open
        // loses SQLite's locks when it closes any descriptor of the file.
        for file in [path, path + "-wal", path + "-shm"] {
            guard access(file, W_OK) == 0 else {
                if errno == ENOENT, file != path { continue }
                throw AlertStoreError.notWritable(path: path, reason: "\(file) does not open for writing (\(Self.reason(errno)))")
            }
        }
        return true
    }

    /// The directory a path is in (`.` for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Creates and removes a file in `directory`.
    private static func checkDirectoryTakesFiles(_ directory: String, for path: String) throws {
        let probe = "\(directory)/.beacond-write-check-\(getpid())"
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let cause = errno
            let reason =
                switch cause {
                case ENOENT: "its directory \(directory) does not exist; create it"
                case ENOTDIR: "\(directory) is not a directory"
                default: "its directory \(directory) does not take new files (\(Self.reason(cause)))"
                }
            throw AlertStoreError.notWritable(path: path, reason: reason)
        }
        close(descriptor)
        unlink(probe)
    }

    /// Creates the database under a temporary name, with its schema, then renames it to `path`:
    /// a crash leaves no file or a whole one, never an empty one.
    private static func createFresh(at path: String, directory: String, configuration: Configuration) throws {
        let temporary = "\(path).new-\(getpid())"
        for leftover in ["", "-wal", "-shm", "-journal"] { unlink(temporary + leftover) }
        let database = try DatabaseQueue(path: temporary, configuration: configuration)
        try AlertStateSchema.migrator.migrate(database)
        try mark(database)
        try database.close()
        let descriptor = open(temporary, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
        guard rename(temporary, path) == 0 else {
            let cause = errno
            unlink(temporary)
            throw AlertStoreError.notWritable(path: path, reason: "cannot rename \(temporary) to it (\(Self.reason(cause)))")
        }
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// beacond's mark in a state file's header (`PRAGMA application_id`): "BCND".
    public static let applicationID: Int32 = 0x4243_4E44

    /// Puts beacond's mark in the database's header.
    static func mark(_ database: DatabaseQueue) throws {
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA application_id = \(applicationID)") }
    }

    /// Checks, read-only (the file is left as it was), that the database at `path` is beacond's:
    /// its mark, or (a file of a beacond from before the mark) beacond's migrations. Returns
    /// whether it still needs the mark.
    /// - Throws: ``AlertStoreError/foreign(path:detail:)``.
    static func checkMark(path: String) throws -> Bool {
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? database.close() }
        let id = try database.read { db in try Int32.fetchOne(db, sql: "PRAGMA application_id") } ?? 0
        if id == applicationID { return false }
        guard id == 0 else {
            let hex = String(UInt32(bitPattern: id), radix: 16)
            throw AlertStoreError.foreign(path: path, detail: "its application_id is 0x\(hex), another program's")
        }
        let tables = try database.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        let first = AlertStateSchema.migrator.migrations.first ?? ""
        var ours = false
        if tables.contains("grdb_migrations") {
            ours =
                try database.read { db in
                    try Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM grdb_migrations WHERE identifier = ?)", arguments: [first])
                } ?? false
        }
        guard ours else {
            let listed = tables.prefix(5).joined(separator: ", ")
            throw AlertStoreError.foreign(
                path: path,
                detail: tables.isEmpty
                    ? "an SQLite database with no tables"
                    : "an SQLite database with tables \(listed)"
                        + (tables.count > 5 ? ", …" : "") + " and none of beacond's")
        }
        return true
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
