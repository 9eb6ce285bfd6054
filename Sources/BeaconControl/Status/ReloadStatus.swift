import BeaconCore
import Synchronization

/// The latest reload of a daemon's configuration file (`SIGHUP`, `systemctl reload`,
/// `POST /reload`), as its log, its page and the answer to `POST /reload` tell it.
public struct ReloadStatus: Hashable, Sendable {
    /// What became of a reload.
    public enum Outcome: String, Hashable, Sendable {
        /// The new alerts run from now on.
        case applied
        /// The file says what the daemon already runs.
        case unchanged
        /// The file cannot be read or does not check; the running configuration stays.
        case rejected
        /// The file changes what only a restart can change; the running configuration stays,
        /// whole (nothing of the file is applied).
        case needsRestart = "needs-restart"

        /// Whether the running configuration stayed because of the file (a failure to report).
        public var isFailure: Bool { self == .rejected || self == .needsRestart }
    }

    /// The configuration file reloaded.
    public var file: String
    /// When the reload happened (the daemon's time).
    public var time: Timestamp
    /// What became of it.
    public var outcome: Outcome
    /// One line that says what happened and, for a failure, what to do.
    public var detail: String
    /// The alerts added, removed and changed by an applied reload (empty otherwise).
    public var added: [String], removed: [String], changed: [String]

    /// Creates a status.
    public init(
        file: String, time: Timestamp, outcome: Outcome, detail: String, added: [String] = [], removed: [String] = [],
        changed: [String] = []
    ) {
        self.file = file
        self.time = time
        self.outcome = outcome
        self.detail = detail
        self.added = added
        self.removed = removed
        self.changed = changed
    }

    /// The status as one JSON object (the answer to `POST /reload`, and `reload` in `/api/status`).
    public var json: String {
        var writer = JSONWriter()
        writer.object { object in writeMembers(into: &object) }
        return writer.string
    }

    /// Writes the status's members into `object`.
    public func writeMembers(into object: inout JSONWriter) {
        object.member("file", file)
        object.member("time", time.rfc3339String)
        object.member("outcome", outcome.rawValue)
        object.member("detail", detail)
        object.key("added")
        object.array { array in for id in added { array.value(id) } }
        object.key("removed")
        object.array { array in for id in removed { array.value(id) } }
        object.key("changed")
        object.array { array in for id in changed { array.value(id) } }
    }
}

/// Where reloads leave their latest status for the page (written by the reload, read by the
/// status board).
public final class ReloadBoard: Sendable {
    private let latest = Mutex<ReloadStatus?>(nil)

    /// An empty board.
    public init() {}

    /// The latest reload's status, if there was one.
    public var status: ReloadStatus? { latest.withLock { $0 } }

    /// Files a reload's status.
    public func record(_ status: ReloadStatus) { latest.withLock { $0 = status } }
}
