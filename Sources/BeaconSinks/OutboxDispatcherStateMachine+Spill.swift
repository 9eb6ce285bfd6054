extension OutboxDispatcherStateMachine {
    /// The outbox counts `total` events spilled in all: the report of those not yet reported, if
    /// any (the shell then reads the dead letters for ``spillRead(_:)``).
    public mutating func overflowCounted(total: Int) -> OutboxDispatcher.Report? {
        guard total > knownOverflow else { return nil }
        defer { knownOverflow = total }
        return .overflow(spilled: total - knownOverflow, total: total)
    }

    /// The sink's dead letters after an overflow: each spilled one (never attempted) not yet
    /// reported, reported like one the sink gave up on, once.
    public mutating func spillRead(_ letters: [DeadLetter]) -> [OutboxDispatcher.Report] {
        let reports = letters.filter { $0.id > reportedSpill && $0.attempts == 0 }.map {
            OutboxDispatcher.Report.deadLettered(event: $0.event, attempts: 0, error: $0.lastError)
        }
        reportedSpill = letters.last?.id ?? reportedSpill
        return reports
    }
}
