import BeaconAlertEngine
import BeaconCore
import BeaconSinks

/// A sink's outbox as a hub of a share with takeover shows it to its dispatcher: only the entries
/// whose claim the broker holds as this hub's are pending (see ``HubLease``); the rest are held.
package struct HeldOutbox: Outbox {
    let outbox: any Outbox
    let lease: HubLease

    package init(_ outbox: any Outbox, lease: HubLease) {
        self.outbox = outbox
        self.lease = lease
    }

    package func pending(sink: String, limit: Int) throws -> [OutboxEntry] {
        let entries = try outbox.pending(sink: sink, limit: limit)
        let deliverable = lease.deliverable(entries)
        guard deliverable.count < entries.count, entries.count == limit else { return deliverable }
        // Held entries filled the page: look past them.
        return Array(lease.deliverable(try outbox.pending(sink: sink, limit: Int.max)).prefix(limit))
    }

    package func remove(_ ids: [Int64]) throws { try outbox.remove(ids) }
    package func backlog(sink: String) throws -> Int { try outbox.backlog(sink: sink) }
    package func overflow(sink: String) throws -> Int { try outbox.overflow(sink: sink) }
    package func enqueue(_ events: [OutboundEvent], sinks: [String]) throws { try outbox.enqueue(events, sinks: sinks) }
    package func recordFailure(_ id: Int64, error: String) throws -> Int { try outbox.recordFailure(id, error: error) }
    package func deadLetter(_ id: Int64, error: String) throws { try outbox.deadLetter(id, error: error) }
    package func deadLetter(_ id: Int64, error: String, notice: OutboundNotice?) throws {
        try outbox.deadLetter(id, error: error, notice: notice)
    }
    package func deadLetters(sink: String) throws -> [DeadLetter] { try outbox.deadLetters(sink: sink) }
    package func dropDeadLetters(eventsBefore cutoff: Timestamp) throws -> Int {
        try outbox.dropDeadLetters(eventsBefore: cutoff)
    }
    package func retryDeadLetters(sink: String, ids: [Int64]?) throws -> Int {
        try outbox.retryDeadLetters(sink: sink, ids: ids)
    }
    package func dropDeadLetters(sink: String, ids: [Int64]?) throws -> Int {
        try outbox.dropDeadLetters(sink: sink, ids: ids)
    }
}
