import BeaconSinks

/// A sink's outbox as a hub with a standby role shows it to its dispatcher: while the hub is a
/// standby, the entries it decided since (held, see ``HubLease``) are not pending yet.
package struct HeldOutbox: Outbox {
    let outbox: any Outbox
    let lease: HubLease

    package init(_ outbox: any Outbox, lease: HubLease) {
        self.outbox = outbox
        self.lease = lease
    }

    package func pending(sink: String, limit: Int) throws -> [OutboxEntry] {
        // Entries come in id order: the first held one ends what may be delivered now.
        let through = lease.deliverableThrough
        var entries = try outbox.pending(sink: sink, limit: limit)
        if let held = entries.firstIndex(where: { $0.id > through }) { entries.removeSubrange(held...) }
        return entries
    }

    package func remove(_ ids: [Int64]) throws { try outbox.remove(ids) }
    package func backlog(sink: String) throws -> Int { try outbox.backlog(sink: sink) }
    package func overflow(sink: String) throws -> Int { try outbox.overflow(sink: sink) }
    package func enqueue(_ events: [OutboundEvent], sinks: [String]) throws { try outbox.enqueue(events, sinks: sinks) }
    package func recordFailure(_ id: Int64, error: String) throws -> Int { try outbox.recordFailure(id, error: error) }
    package func deadLetter(_ id: Int64, error: String) throws { try outbox.deadLetter(id, error: error) }
    package func deadLetters(sink: String) throws -> [DeadLetter] { try outbox.deadLetters(sink: sink) }
    package func retryDeadLetters(sink: String, ids: [Int64]?) throws -> Int {
        try outbox.retryDeadLetters(sink: sink, ids: ids)
    }
    package func dropDeadLetters(sink: String, ids: [Int64]?) throws -> Int {
        try outbox.dropDeadLetters(sink: sink, ids: ids)
    }
}
