import BeaconCore
import BeaconSite
import BeaconSiteReport
import Logging
import Synchronization

/// Logs a hub's refused reports without letting a flood of them flood the log: the first of each
/// reason at once, with its detail; after that at most one line per reason and `interval`,
/// counting what it did not show. Counting every refusal is the fusion's (and the metrics'); this
/// is what a person reading the log needs.
package final class ReportRefusalLog: Sendable {
    private struct Entry {
        var lastLogged: Timestamp
        var unlogged = 0
        var latest: ReportRefusal
    }

    private let logger: Logger
    private let clock: AnyTimestampClock
    private let interval: Duration
    private let entries = Mutex<[ReportRefusal.Reason: Entry]>([:])

    package init(logger: Logger, clock: AnyTimestampClock, interval: Duration = .seconds(60)) {
        self.logger = logger
        self.clock = clock
        self.interval = interval
    }

    /// Takes one refusal; logs it, or a summary of those held back, when its reason's interval has
    /// passed.
    package func record(_ refusal: ReportRefusal) {
        let now = clock.now
        let line: (ReportRefusal, Int)? = entries.withLock { entries in
            guard var entry = entries[refusal.reason] else {
                entries[refusal.reason] = Entry(lastLogged: now, latest: refusal)
                return (refusal, 0)
            }
            entry.latest = refusal
            guard now - entry.lastLogged >= interval else {
                entry.unlogged += 1
                entries[refusal.reason] = entry
                return nil
            }
            let held = entry.unlogged
            entries[refusal.reason] = Entry(lastLogged: now, latest: refusal)
            return (refusal, held)
        }
        guard let (shown, held) = line else { return }
        var metadata: Logger.Metadata = ["reason": "\(shown.reason.rawValue)"]
        if let gateway = shown.gateway { metadata["gateway"] = "\(gateway)" }
        if held > 0 { metadata["alsoRefused"] = "\(held)" }
        logger.warning(
            "site: \(shown)\(held > 0 ? " (and \(held) more for this reason since the last line)" : "")",
            metadata: metadata)
    }
}
