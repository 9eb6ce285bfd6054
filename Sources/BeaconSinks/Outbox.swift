import BeaconAlertEngine
import BeaconCore

/// Durable storage of the events each sink still has to confirm (the SQLite store implements it
/// in the same transaction as the alert engine's state; ``InMemoryOutbox`` is for tests).
///
/// Entries of one sink are read in the order they were written; an entry leaves only through
/// ``remove(_:)``, after its sink confirmed it, or through ``deadLetter(_:error:)``, when its sink
/// gave up on it (it then waits among the sink's ``deadLetters(sink:)``, nothing is lost).
public protocol Outbox: Sendable {
    /// The oldest `limit` entries waiting for `sink`, oldest first.
    func pending(sink: String, limit: Int) throws -> [OutboxEntry]
    /// Forgets confirmed entries.
    func remove(_ ids: [Int64]) throws
    /// How many entries wait for `sink`.
    func backlog(sink: String) throws -> Int
    /// How many events were spilled for `sink` because its backlog was full (kept among its dead
    /// letters with no attempt), since the store was created.
    func overflow(sink: String) throws -> Int
    /// Adds `events` for the named sinks only (within the backlog bound, spilling past it):
    /// for a notice about one sink's failure, written to the others.
    func enqueue(_ events: [OutboundEvent], sinks: [String]) throws
    /// Records a failed attempt at entry `id` with its error; returns how many attempts failed.
    func recordFailure(_ id: Int64, error: String) throws -> Int
    /// Moves entry `id` to its sink's dead letters with its last error (one transaction).
    func deadLetter(_ id: Int64, error: String) throws
    /// Moves entry `id` to its sink's dead letters with its last error and adds `notice` (telling
    /// the other sinks) for the sinks it names, in one transaction: the move and its notice go
    /// through one door. (Default: ``deadLetter(_:error:)``, then the notice in a second write.)
    func deadLetter(_ id: Int64, error: String, notice: OutboundNotice?) throws
    /// The dead letters of `sink`, oldest first.
    func deadLetters(sink: String) throws -> [DeadLetter]
    /// Moves dead letters of `sink` back to the end of its outbox (`ids` nil: all); returns how
    /// many. Their attempts start again from zero.
    func retryDeadLetters(sink: String, ids: [Int64]?) throws -> Int
    /// Forgets dead letters of `sink` (`ids` nil: all); returns how many.
    func dropDeadLetters(sink: String, ids: [Int64]?) throws -> Int
    /// Retention: forgets every sink's dead letters whose event happened before `cutoff`
    /// (``OutboundEvent/time(ofBody:key:)``; one that says no time is kept); returns how many.
    func dropDeadLetters(eventsBefore cutoff: Timestamp) throws -> Int
}

extension Outbox {
    /// ``deadLetter(_:error:)``, then `notice` for its sinks in a second write (an outbox that
    /// can do both in one transaction implements this itself).
    public func deadLetter(_ id: Int64, error: String, notice: OutboundNotice?) throws {
        try deadLetter(id, error: error)
        if let notice { try enqueue([OutboundEvent(notice)], sinks: notice.sinks) }
    }
}
