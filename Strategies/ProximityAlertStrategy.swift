import BeaconCore
import BeaconStrategyKit

/// Closeness: fires once a beacon has been seen at or closer than ``Configuration/proximity``
/// for ``Configuration/cycles`` consecutive cycles. A cycle unseen or farther breaks the run (and
/// counts as unseen for the reset).
public final class ProximityAlertStrategy: BeaconAlertStrategyBase<ConsecutiveCount> {
    /// The proximity options.
    public struct Configuration: Hashable, Sendable {
        /// The farthest band that counts (default `near`).
        public var proximity: Proximity
        /// Consecutive cycles required (default 1).
        public var cycles: Int
        /// The base options.
        public var base: StrategyBaseConfiguration

        /// Creates a configuration.
        public init(proximity: Proximity = .near, cycles: Int = 1, base: StrategyBaseConfiguration = .init()) {
            self.proximity = proximity
            self.cycles = cycles
            self.base = base
        }
    }

    /// The key configuration uses.
    public static let key = "proximity"

    /// The proximity options.
    public let options: Configuration

    /// Creates the strategy.
    public init(_ options: Configuration = .init(), capacity: Int = 0) {
        self.options = options
        super.init(initialValue: ConsecutiveCount(), configuration: options.base, capacity: capacity)
    }

    public override var key: String { Self.key }

    public override func isPresent(_ beacon: RangedBeacon) -> Bool {
        beacon.seenThisCycle && beacon.proximity.isWithin(options.proximity)
    }

    public override func updateAlertParameter(_ run: inout ConsecutiveCount, beacon: RangedBeacon?, now: Timestamp) {
        let present = if let beacon { isPresent(beacon) } else { false }
        run.record(present)
    }

    public override func isConditionValid(_ run: ConsecutiveCount, now: Timestamp) -> Bool {
        run.cycles >= options.cycles
    }
}
