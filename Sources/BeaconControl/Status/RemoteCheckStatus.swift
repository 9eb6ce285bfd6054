import BeaconCore
import Synchronization

/// The latest check of a daemon's remote alert document, as its status page shows it.
public struct RemoteCheckStatus: Hashable, Sendable {
    /// The document's URL.
    public var url: String
    /// The environment in force (`environment:`), if the configuration names environments.
    public var environment: String?
    /// When the check ran (the daemon's time).
    public var time: Timestamp
    /// `updated`, `staged`, `unchanged`, `rejected`, `unreachable`, `refused` or `bad-signature`.
    public var outcome: String
    /// Why it failed, for a failure (the last good set stayed in force).
    public var failure: String?
    /// When the latest check that did not fail ran, if one has.
    public var lastSuccess: Timestamp?

    /// Creates a status.
    public init(
        url: String, environment: String? = nil, time: Timestamp, outcome: String, failure: String? = nil,
        lastSuccess: Timestamp? = nil
    ) {
        self.url = url
        self.environment = environment
        self.time = time
        self.outcome = outcome
        self.failure = failure
        self.lastSuccess = lastSuccess
    }
}

/// Where the remote checks leave their latest status for the page (written by the check, read
/// by the status board).
public final class RemoteCheckBoard: Sendable {
    private let latest = Mutex<RemoteCheckStatus?>(nil)

    /// An empty board.
    public init() {}

    /// The latest status, if a check ran.
    public var status: RemoteCheckStatus? { latest.withLock { $0 } }

    /// Files a check: its outcome, and its failure if it failed (a success is remembered as the
    /// latest success).
    public func record(url: String, environment: String?, time: Timestamp, outcome: String, failure: String?) {
        latest.withLock { status in
            let lastSuccess = failure == nil ? time : status?.lastSuccess
            status = RemoteCheckStatus(
                url: url, environment: environment, time: time, outcome: outcome, failure: failure,
                lastSuccess: lastSuccess)
        }
    }
}
