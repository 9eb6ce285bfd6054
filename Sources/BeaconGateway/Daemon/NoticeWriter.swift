import BeaconSinks
import BeaconSiteLink
import Logging

/// Writes the daemon's notices that no alert write or dead-letter move carries — an event spilled
/// by a full backlog, the latency objective, a failed check of remote alerts — to sinks through
/// the outbox, as alerts go (at least once): claimed on a hub of a share with takeover as its
/// alerts are (the active hub delivers them), and the sinks' dispatchers woken. (A gateway's
/// offline and online events go with their cycle's alerts, `AlertPipeline.post(_:)`; a dead
/// letter's notice with its move, `OutboxDispatcher`'s `deadLetterNotice`.)
struct NoticeWriter: Sendable {
    let outbox: any Outbox
    /// The hub's lease, with `hub.takeover`.
    let lease: HubLease?
    let notified: DispatcherDirectory
    let logger: Logger

    /// Writes `events` for `sinks`; a write that fails is logged, naming the notice (`what`).
    func write(_ events: [OutboundEvent], to sinks: [String], what: String) {
        do {
            try outbox.enqueue(events, sinks: sinks)
            written(events.map(\.key), to: sinks)
        } catch {
            logger.error("\(what) cannot be written to the outbox: \(error)")
        }
    }

    /// What follows a notice's write, through this writer or another door (a cycle's commit, a
    /// dead letter's move): the notices under `keys` are claimed on a hub with takeover, and the
    /// dispatchers of `sinks` woken.
    func written(_ keys: [String], to sinks: [String]) {
        for key in keys { lease?.committed(key: key) }
        notified.notify(sinks)
    }
}
