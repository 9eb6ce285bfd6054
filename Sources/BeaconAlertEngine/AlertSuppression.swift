import BeaconCore

/// How long a dismissal keeps an alert from firing again for its beacon.
public enum AlertSuppression: Hashable, Sendable, CustomStringConvertible {
    /// For this long after the dismissal.
    case `for`(Duration)
    /// Until lifted.
    case forever

    /// Reads `30m`, `1d`, … or `forever`; `nil` for anything else.
    public init?(parsing text: String) {
        if text == "forever" {
            self = .forever
        } else if let duration = Duration(parsing: text), duration > .zero {
            self = .for(duration)
        } else {
            return nil
        }
    }

    /// The end of the suppression of a dismissal at `now`.
    public func end(from now: Timestamp) -> Timestamp {
        switch self {
        case .for(let duration): now + duration
        case .forever: .distantFuture
        }
    }

    /// `for 1d`, `for good`.
    public var description: String {
        switch self {
        case .for(let duration): "for \(duration.humanReadable)"
        case .forever: "for good"
        }
    }
}
