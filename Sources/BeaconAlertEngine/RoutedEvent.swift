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
    // swift-format-ignore: UseShorthandTypeNames
    /// For a `delivered` event: the moment its advertisement-to-sink latency counts from — for a
    /// delivery at the firing, the beacon's latest advertisement (at most two cycles earlier);
    /// otherwise the moment the engine released it (a delay's end, a window's opening, a
    /// reminder). The pipeline sets it; `nil` for the other kinds. Not part of the event's JSON.
    public var origin: Optional<Timestamp>

    /// Creates a routed event.
    public init(event: AlertEvent, destination: String?, origin: Timestamp? = nil) {
        self.event = event
        self.destination = destination
        self.origin = origin
    }
}
