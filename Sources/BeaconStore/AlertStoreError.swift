/// Why the SQLite alert state store cannot be used as it is.
public enum AlertStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The database was migrated by a newer beacond, with migrations this one does not know.
    case schemaTooNew(path: String, unknownMigrations: [String])
    /// A stored row cannot be read back.
    case corruptRow(table: String, reason: String)
    /// The file is not a SQLite database, or SQLite's check finds it damaged.
    case damaged(path: String, detail: String)
    /// A backup copy could not be written to the disk.
    case backupFailed(path: String, reason: String)
    /// The state file, or the directory it is in, cannot be written (a read-only directory or
    /// file system, a parent that is not a directory, no permission).
    case notWritable(path: String, reason: String)
    /// The file is a SQLite database that beacond did not make: another program's, or one made
    /// by hand (it lacks beacond's mark, `PRAGMA application_id`, and beacond's schema).
    case foreign(path: String, detail: String)
    /// Another process holds the state file for itself (a running daemon; `FILE.lock`).
    case inUse(path: String, holder: String)

    /// What is wrong and what to do.
    public var description: String {
        switch self {
        case .schemaTooNew(let path, let unknown):
            "the alert state database \(path) was written by a newer beacond (migrations \(unknown.joined(separator: ", "))); run that version or move the file away"
        case .corruptRow(let table, let reason):
            "a row of table '\(table)' in the alert state database cannot be read: \(reason); restore a backup or delete the row"
        case .damaged(let path, let detail):
            "the alert state database \(path) is damaged (\(detail)). beacond does not start on it, so that no "
                + "alert is silently repeated or lost: restore the latest backup (`beacond state backup` writes "
                + "them) or move the file away to start with an empty state"
        case .backupFailed(let path, let reason):
            "the backup \(path) could not be written to the disk (\(reason)); check the directory and free space"
        case .notWritable(let path, let reason):
            "the alert state database \(path) cannot be written: \(reason). beacond writes every decision there "
                + "before it acts on it, so it does not start without it: make the file and its directory writable "
                + "by the user beacond runs as (SQLite creates FILE-wal and FILE-shm next to it), or set state: to a "
                + "file in a writable directory"
        case .foreign(let path, let detail):
            "the alert state database \(path) is not one beacond made (\(detail)). beacond does not adopt it: it "
                + "would send every alert again as new, or write into another program's data. Set state: to a path of "
                + "its own (beacond creates the file), or restore beacond's file there"
        case .inUse(let path, let holder):
            "the alert state database \(path) is in use by \(holder): two processes deciding on one state would "
                + "repeat or lose alerts. Stop that one first (systemctl stop beacond), or give this one a state: of its own"
        }
    }
}
