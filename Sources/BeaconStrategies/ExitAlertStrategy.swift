import BeaconCore
import BeaconStrategyKit

/// Departure: fires at the first cycle a beacon has been unseen for at least
/// ``Configuration/away`` — whether it is still in the ranging update (missed-scan grace) or
/// already gone from it. A beacon never seen does not leave.
///
/// The condition is an event: it holds only during that one cycle, once per absence. By
/// default the action is reset as soon as the condition stops holding, so every departure fires.
public final class ExitAlertStrategy: BeaconAlertStrategyBase<PresenceEdge> {
    /// The exit options.
    public struct Configuration: Hashable, Sendable {
        /// How long unseen before the beacon counts as gone (default 30 s).
        public var away: Duration
        /// The base options (default: reset when the condition stops holding).
        public var base: StrategyBaseConfiguration

        /// Creates a configuration.
        public init(
            away: Duration = .seconds(30),
            base: StrategyBaseConfiguration = .init(resetWhenConditionInvalid: true)
        ) {
            self.away = away
            self.base = base
        }
    }

    /// The key configuration uses.
    public static let key = "exit"

    /// The exit options.
    public let options: Configuration

    /// Creates the strategy.
    public init(_ options: Configuration = .init(), capacity: Int = 0) {
        self.options = options
        super.init(initialValue: PresenceEdge(), configuration: options.base, capacity: capacity)
    }

    public override var key: String { Self.key }

    public override var minimumRetention: Duration { options.away }

    public override func updateAlertParameter(_ edge: inout PresenceEdge, beacon: RangedBeacon?, now: Timestamp) {
        if let beacon, beacon.seenThisCycle {
            edge.lastSeen = now
            edge.away = false
            edge.event = false
            return
        }
        let away = edge.lastSeen.map { now - $0 >= options.away } ?? false
        edge.event = away && !edge.away
        edge.away = away
    }

    public override func isConditionValid(_ edge: PresenceEdge, now: Timestamp) -> Bool { edge.event }
}
