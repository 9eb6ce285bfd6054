/// Durable storage of the alert engine's state.
///
/// An engine starts from the whole state, read once; its caller then writes each
/// ``AlertEngineOutput``'s changes as one batch, **before** delivering its events: an event is
/// only ever delivered after the state change behind it is stored, so a restart neither repeats
/// a delivery nor loses a scheduled alert. Implementations must apply a batch atomically (all
/// or nothing) and durably before returning.
public protocol AlertStateStore: AnyObject, Sendable {
    /// Reads everything stored.
    func load() throws -> AlertEngineState
    /// Applies `changes`, in order, atomically.
    func apply(_ changes: [AlertStateChange]) throws
    /// Applies one step's `changes` and records the `events` the step is about to emit, in the
    /// same atomic write: a store that keeps an outbox for sinks writes the events there, so
    /// that an event is durable exactly when the state change behind it is (none lost if the
    /// process dies before the sinks have them). ``commit(_:)`` calls this for every output that
    /// changes state or emits events; the default applies `changes` alone.
    func apply(_ changes: [AlertStateChange], emitting events: [RoutedEvent]) throws
    /// ``apply(_:emitting:)`` with `notices` (the daemon's own, a gateway offline or back) added
    /// for the sinks each names, in the same atomic write. A pipeline calls it for every input
    /// that changes state, emits events or posted notices; the default applies `changes` and
    /// `events` as ``apply(_:emitting:)`` does and keeps no record of the notices (a store without
    /// an outbox delivers nothing).
    func apply(_ changes: [AlertStateChange], emitting events: [RoutedEvent], notices: [OutboundNotice]) throws
    /// Whether the store keeps the strategies' per-beacon state (``AlertStateChange/putStrategyState(_:)``
    /// and the like): a store that outlives the process should. When false, a pipeline does not
    /// collect it (no cost) and the store must ignore such changes. (Default: false.)
    var keepsStrategyState: Bool { get }
}

extension AlertStateStore {
    /// Default: the strategies' state is not kept.
    public var keepsStrategyState: Bool { false }

    /// Applies `changes` (if any) and keeps no record of the events.
    public func apply(_ changes: [AlertStateChange], emitting events: [RoutedEvent]) throws {
        if !changes.isEmpty { try apply(changes) }
    }

    /// Applies `changes` and `events` as ``apply(_:emitting:)`` does; keeps no record of the notices.
    public func apply(_ changes: [AlertStateChange], emitting events: [RoutedEvent], notices: [OutboundNotice]) throws {
        try apply(changes, emitting: events)
    }
}
