/// A round: the backlog delivered in batches, each entry's failure counted (the I/O the state
/// machine's ``OutboxDispatcherStateMachine/Action/deliverBacklog`` asks for).
extension OutboxDispatcher {
    /// Why a delivery stopped: the error, and how many attempts at the entry have failed so far
    /// (0 when the failure was not an entry's, such as a flush or the outbox itself).
    struct Failure {
        var error: String
        var attempts = 0
    }

    /// Delivers batches until the backlog is empty (`nil`) or the sink refuses (the reason).
    func deliverBacklog() async -> Failure? {
        while true {
            let entries: [OutboxEntry]
            do {
                entries = try outbox.pending(sink: sinkName, limit: batchSize)
            } catch {
                report(.storageFailed(error: "\(error)"))
                return Failure(error: "\(error)")
            }
            if entries.isEmpty { return nil }
            var confirmed: [Int64] = []
            var failure: Failure?
            for entry in entries {
                do {
                    try await sink.deliver(entry.event)
                    if sink.confirmsEachDelivery { try outbox.remove([entry.id]) }
                    confirmed.append(entry.id)
                } catch {
                    switch countFailure(entry, error) {
                    case .movedToDeadLetters: continue // the sink goes on with the next entry
                    case .retry(let attempts): failure = Failure(error: "\(error)", attempts: attempts)
                    }
                    break
                }
            }
            if !confirmed.isEmpty {
                do {
                    try await sink.flush()
                    try outbox.remove(confirmed)
                    report(.delivered(count: confirmed.count, backlog: (try? outbox.backlog(sink: sinkName)) ?? 0))
                } catch {
                    return Failure(error: "\(error)")
                }
            }
            if let failure { return failure }
        }
    }

    /// What became of an entry whose delivery failed.
    enum FailureOutcome {
        /// It stays first in line, after `attempts` failed attempts in all.
        case retry(attempts: Int)
        /// It is among the dead letters; the sink goes on with the next entry.
        case movedToDeadLetters
    }

    /// Counts a failed attempt at `entry`; moves it to the dead letters when `error` is permanent
    /// or the attempts are used up. When the outbox cannot count or move it, the entry stays
    /// and is retried.
    func countFailure(_ entry: OutboxEntry, _ error: any Error) -> FailureOutcome {
        let message = "\(error)"
        let attempts: Int
        do { attempts = try outbox.recordFailure(entry.id, error: message) } catch {
            report(.storageFailed(error: "\(error)"))
            return .retry(attempts: 0)
        }
        let permanent = DeliveryFailure.isPermanent(error)
        guard machine.entryFailed(attempts: attempts, permanent: permanent) == .deadLetter else {
            return .retry(attempts: attempts)
        }
        let notice = deadLetterNotice?(entry.event, attempts, message)
        do {
            try outbox.deadLetter(entry.id, error: message, notice: notice)
        } catch {
            report(.storageFailed(error: "\(error)"))
            return .retry(attempts: attempts)
        }
        report(.deadLettered(event: entry.event, attempts: attempts, error: message))
        if let notice { report(.deadLetterNoticed(notice: notice)) }
        return .movedToDeadLetters
    }
}
