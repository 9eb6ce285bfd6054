import BeaconCore
import BeaconStrategyKit

/// Arrival: fires at the first cycle a beacon is seen after being unseen for at least
/// ``Configuration/absence`` (a beacon never seen before counts as arriving).
///
/// The condition is an event: it holds only during that one cycle. By default the action is
/// reset as soon as the condition stops holding, so every arrival fires.
public final class EnterAlertStrategy: BeaconAlertStrategyBase<PresenceEdge> {
    /// The enter options.
    public struct Configuration: Hashable, Sendable {
        /// The absence that makes the next sighting an arrival (default 30 s).
        public var absence: Duration
        /// The base options (default: reset when the condition stops holding).
        public var base: StrategyBaseConfiguration

        /// Creates a configuration.
        public init(
            absence: Duration = .seconds(30),
            base: StrategyBaseConfiguration = .init(resetWhenConditionInvalid: true)
        ) {
            self.absence = absence
            self.base = base
        }
    }

    /// The key configuration uses.
    public static let key = "enter"

    /// The enter options.
    public let options: Configuration

    /// Creates the strategy.
    public init(_ options: Configuration = .init(), capacity: Int = 0) {
        self.options = options
        super.init(initialValue: PresenceEdge(), configuration: options.base, capacity: capacity)
    }

    public override var key: String { Self.key }

    public override var minimumRetention: Duration { options.absence }

    public override func updateAlertParameter(_ edge: inout PresenceEdge, beacon: RangedBeacon?, now: Timestamp) {
        guard let beacon, beacon.seenThisCycle else {
            edge.event = false
            return
        }
        if let lastSeen = edge.lastSeen {
            edge.event = now - lastSeen >= options.absence
        } else {
            edge.event = true
        }
        edge.lastSeen = now
    }

    public override func isConditionValid(_ edge: PresenceEdge, now: Timestamp) -> Bool { edge.event }
}
