/// Durable storage of the events each sink still has to confirm (the SQLite store implements it
/// in the same transaction as the alert engine's state; ``InMemoryOutbox`` is for tests).
///
/// Entries of one sink are read in the order they were written; an entry leaves only through
/// ``remove(_:)``, after its sink confirmed it.
public protocol Outbox: Sendable {
    /// The oldest `limit` entries waiting for `sink`, oldest first.
    func pending(sink: String, limit: Int) throws -> [OutboxEntry]
    /// Forgets confirmed entries.
    func remove(_ ids: [Int64]) throws
    /// How many entries wait for `sink`.
    func backlog(sink: String) throws -> Int
    /// How many events were refused for `sink` because its backlog was full, since the store was created.
    func overflow(sink: String) throws -> Int
}
