import BeaconCore

/// An engine output: a lifecycle event and the callback destination configured for its kind
/// (`nil` when the alert has no callbacks; the gateway's sinks still receive it).
public struct RoutedEvent: Hashable, Sendable {
    /// The event.
    public var event: AlertEvent
    // `Optional` spelled out: a `String?` property gets an implicit initial value, which kept
    // the engine from building a routed event in place (it was copied into the buffer and
    // destroyed).
    // swift-format-ignore: UseShorthandTypeNames
    /// The callback URL for this event's kind, from ``CallbackDestinations``.
    public var destination: Optional<String>

    /// Creates a routed event.
    public init(event: AlertEvent, destination: String?) {
        self.event = event
        self.destination = destination
    }
}
