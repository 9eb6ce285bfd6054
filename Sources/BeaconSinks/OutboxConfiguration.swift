/// Which sinks get a copy of every event, and how many events each may have waiting.
public struct OutboxConfiguration: Hashable, Sendable {
    /// The default bound of a sink's backlog.
    public static let defaultMaxBacklog = 10_000

    /// The sink names (each gets its own copy of every event).
    public var sinks: [String]
    /// At most this many events wait per sink; more are *spilled*: kept among the sink's dead
    /// letters, never attempted, with ``spillError`` (`beacond outbox retry` sends them), and
    /// counted in ``Outbox/overflow(sink:)``.
    public var maxBacklog: Int
    /// The sinks named by an alert's `escalate.to`: they get only the events escalated to them.
    public var escalationSinks: Set<String>

    /// The error a spilled event is kept with among the dead letters.
    public var spillError: String {
        "backlog full (maxBacklog \(maxBacklog)): kept without an attempt; `beacond outbox retry` sends it"
    }

    /// Creates a configuration.
    public init(sinks: [String], maxBacklog: Int = defaultMaxBacklog, escalationSinks: Set<String> = []) {
        self.sinks = sinks
        self.maxBacklog = maxBacklog
        self.escalationSinks = escalationSinks
    }

    /// Whether `sink` gets a copy of `event`: every sink does, except an escalation sink, which
    /// gets only the events escalated to it.
    public func takes(_ event: OutboundEvent, sink: String) -> Bool {
        !escalationSinks.contains(sink) || event.escalatedTo.contains(sink)
    }

    /// No outbox: events are not kept.
    public static let none = OutboxConfiguration(sinks: [])
}
