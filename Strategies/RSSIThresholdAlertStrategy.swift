import BeaconCore
import BeaconStrategyKit

/// Signal strength: fires once a beacon's filtered RSSI has been at least
/// ``Configuration/threshold`` dBm for ``Configuration/cycles`` consecutive seen cycles. A cycle
/// unseen, without a filtered RSSI, or below the threshold breaks the run.
public final class RSSIThresholdAlertStrategy: BeaconAlertStrategyBase<ConsecutiveCount> {
    /// The RSSI options.
    public struct Configuration: Hashable, Sendable {
        /// The weakest filtered RSSI that counts, in dBm (default -70).
        public var threshold: Double
        /// Consecutive cycles required (default 3).
        public var cycles: Int
        /// The base options.
        public var base: StrategyBaseConfiguration

        /// Creates a configuration.
        public init(threshold: Double = -70, cycles: Int = 3, base: StrategyBaseConfiguration = .init()) {
            self.threshold = threshold
            self.cycles = cycles
            self.base = base
        }
    }

    /// The key configuration uses.
    public static let key = "rssi"

    /// The RSSI options.
    public let options: Configuration

    /// Creates the strategy.
    public init(_ options: Configuration = .init(), capacity: Int = 0) {
        self.options = options
        super.init(initialValue: ConsecutiveCount(), configuration: options.base, capacity: capacity)
    }

    public override var key: String { Self.key }

    public override func isPresent(_ beacon: RangedBeacon) -> Bool {
        guard beacon.seenThisCycle, let rssi = beacon.filteredRSSI else { return false }
        return rssi >= options.threshold
    }

    public override func updateAlertParameter(_ run: inout ConsecutiveCount, beacon: RangedBeacon?, now: Timestamp) {
        let present = if let beacon { isPresent(beacon) } else { false }
        run.record(present)
    }

    public override func isConditionValid(_ run: ConsecutiveCount, now: Timestamp) -> Bool {
        run.cycles >= options.cycles
    }
}
