/// When what is kept for a limited time (`retention:`) is next looked at: on the data's own clock,
/// every tenth of the limit, at least a minute and at most an hour apart — what is forgotten
/// outlives the limit by at most that. The alert engine's histories and the outboxes' dead letters
/// are swept on it.
public struct RetentionSweep: Sendable, Hashable {
    /// How long what it sweeps is kept.
    public let limit: Duration
    /// How long from one look to the next.
    public let interval: Duration
    private var next: Timestamp?

    /// A sweep of what is kept for `limit`; the first look is at the first time it is asked.
    public init(limit: Duration) {
        self.limit = limit
        interval = min(max(limit / 10, .seconds(60)), .seconds(3_600))
    }

    /// When a look is due at `now`: the cutoff (what happened before it goes), and the next look
    /// is an interval later; `nil` when none is due.
    public mutating func cutoff(at now: Timestamp) -> Timestamp? {
        if let next, now < next { return nil }
        next = now + interval
        return now - limit
    }
}
