import BeaconCore

/// Where each kind of event of an alert is sent: `callback` for all kinds, overridden per kind
/// by `callbackCreated`, `callbackDelivered`, `callbackCancelled`, `callbackError`.
///
/// Either no destination is given at all (events go only to the gateway's sinks, with a `nil`
/// destination), or every kind must resolve to one — give `callback` as the fallback, or all
/// four specific ones. Anything in between is a configuration error
/// (``AlertPolicyError/missingCallbacks(_:)``).
public struct CallbackDestinations: Hashable, Sendable {
    /// The fallback for every kind.
    public let callback: String?
    /// Per-kind overrides.
    public let created: String?
    /// Destination of `delivered` events.
    public let delivered: String?
    /// Destination of `cancelled` events.
    public let cancelled: String?
    /// Destination of `error` events.
    public let error: String?

    /// Creates destinations; throws when some kinds have one and others none.
    public init(
        callback: String? = nil, created: String? = nil, delivered: String? = nil,
        cancelled: String? = nil, error: String? = nil
    ) throws(AlertPolicyError) {
        self.callback = callback
        self.created = created
        self.delivered = delivered
        self.cancelled = cancelled
        self.error = error
        let kinds: [AlertEvent.Kind] = [.created, .delivered, .cancelled, .error]
        let missing = kinds.filter { destination(for: $0) == nil }
        if !missing.isEmpty && missing.count < kinds.count {
            throw .missingCallbacks(missing)
        }
    }

    /// No destination: events go to the gateway's sinks only.
    public static let none = try! CallbackDestinations()

    /// The destination of events of `kind`: the specific one, else `callback`.
    public func destination(for kind: AlertEvent.Kind) -> String? {
        let specific: String? =
            switch kind {
            case .created: created
            case .delivered: delivered
            case .cancelled: cancelled
            case .error: error
            // Answers go where the deliveries they answer went.
            case .acknowledged, .dismissed: delivered
            }
        return specific ?? callback
    }
}
