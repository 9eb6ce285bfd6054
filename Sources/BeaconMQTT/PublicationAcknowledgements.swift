/// The bookkeeping of QoS 1 publications by message id: who waits for which PUBACK, and which
/// PUBACKs nobody may take for their own.
///
/// libmosquitto numbers publications with a 16-bit id it reuses once the previous publication of
/// that id is acknowledged (and the counter has come round). So a PUBACK must only ever confirm
/// the publication it answers:
/// - a PUBACK that arrives before its delivery starts waiting (the network thread can be that
///   quick) is kept for that delivery, and only until it takes it;
/// - a delivery that gave up (timed out) leaves its id **abandoned**: its late PUBACK is dropped,
///   so it can never confirm a later publication that reuses the id. If the counter comes round
///   to the id before that PUBACK, the first PUBACK of the id is still taken for the abandoned
///   publication: the new one waits for the next, or times out and is retried (a duplicate at
///   worst, never a delivery confirmed that the broker does not have);
/// - retained state nobody waits for is **unawaited**: its PUBACK is dropped too.
///
/// `Waiter` is whatever resumes a delivery (a continuation in ``MQTTSink``; a plain value in
/// tests). Every method is called under the sink's lock.
struct PublicationAcknowledgements<Waiter> {
    private var waiting: [Int32: Waiter] = [:]
    /// PUBACKs that came before their delivery waited for them.
    private var early: Set<Int32> = []
    /// Ids whose delivery timed out: their PUBACK, when it comes, confirms nothing.
    private var abandoned: Set<Int32> = []
    /// Ids of retained publications nobody waits for.
    private var unawaited: Set<Int32> = []

    /// A delivery waits for the PUBACK of `id`: `true` if it already came (the delivery is
    /// confirmed), otherwise `waiter` is kept until it comes or the delivery gives up.
    mutating func wait(for id: Int32, _ waiter: Waiter) -> Bool {
        if early.remove(id) != nil { return true }
        waiting[id] = waiter
        return false
    }

    /// The delivery waiting for `id` gives up: returns its waiter (to fail it), and the id's PUBACK,
    /// if it ever comes, is dropped.
    mutating func giveUp(on id: Int32) -> Waiter? {
        guard let waiter = waiting.removeValue(forKey: id) else { return nil }
        abandoned.insert(id)
        return waiter
    }

    /// `id` was published without anyone waiting (retained state): its PUBACK is dropped.
    mutating func publishedUnawaited(_ id: Int32) {
        if early.remove(id) == nil { unawaited.insert(id) }
    }

    /// The broker acknowledged `id`: returns the waiter it confirms, if any.
    mutating func acknowledged(_ id: Int32) -> Waiter? {
        if unawaited.remove(id) != nil { return nil }
        if abandoned.remove(id) != nil { return nil }
        if let waiter = waiting.removeValue(forKey: id) { return waiter }
        early.insert(id)
        return nil
    }

    /// Every waiter (to fail them when the sink goes away), leaving none.
    mutating func removeAllWaiters() -> [Waiter] {
        defer { waiting.removeAll() }
        return Array(waiting.values)
    }

    /// How many PUBACKs are kept for a delivery that has not waited yet (for tests).
    var earlyCount: Int { early.count }
    /// How many ids are abandoned (for tests).
    var abandonedCount: Int { abandoned.count }
}
