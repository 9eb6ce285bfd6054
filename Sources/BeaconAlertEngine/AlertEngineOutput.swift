import BeaconCore

/// What one call of the engine did: the state changes to make durable and the lifecycle events
/// that follow from them.
///
/// The engine has already applied `changes` to its own ``AlertEngine/state``; its caller commits
/// them (with `events`, for a store that keeps an outbox) in one atomic write with
/// ``AlertStateStore/apply(_:emitting:)`` **before** handing `events` to anyone, and may gather
/// several outputs (and its own changes, such as the strategies') into one transaction. If the
/// write fails, the caller rebuilds the engine from what is stored (``AlertEngine/init(configuration:loadingFrom:)``):
/// nothing of an uncommitted output is then left anywhere.
public struct AlertEngineOutput: Sendable {
    /// Changes to the durable state, in order.
    public var changes: [AlertStateChange]
    /// Lifecycle events, in order, with their destinations.
    public var events: [RoutedEvent]

    /// Creates an output (empty by default).
    public init(changes: [AlertStateChange] = [], events: [RoutedEvent] = []) {
        self.changes = changes
        self.events = events
    }

    /// Whether there is nothing to commit or deliver.
    public var isEmpty: Bool { changes.isEmpty && events.isEmpty }

    /// Appends another output after this one (a caller gathering one transaction).
    public mutating func append(_ other: AlertEngineOutput) {
        changes += other.changes
        events += other.events
    }
}

extension AlertStateStore {
    /// Commits an engine's output: its changes and events in one atomic write (nothing when it
    /// is empty). Returns the events, which may be delivered once this returns.
    @discardableResult
    public func commit(_ output: AlertEngineOutput) throws -> [RoutedEvent] {
        if !output.isEmpty { try apply(output.changes, emitting: output.events) }
        return output.events
    }
}
