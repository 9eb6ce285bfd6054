import BeaconCore
import BeaconStrategyKit

/// In an area: fires once a site hub has placed a beacon inside a circle or a rectangle of the
/// floor plan for ``Configuration/cycles`` consecutive cycles — near an exhibit, at a door, in a
/// bay. Positions less certain than ``Configuration/maximumError`` (when set) count as outside.
///
/// Positions come from `RangedBeacon.position`, which only a site hub sets; on one gateway's
/// pipeline this strategy never fires. By default the action resets once the beacon is outside
/// again, so every stay fires once.
public final class AreaAlertStrategy: BeaconAlertStrategyBase<ConsecutiveCount> {
    /// The area, in the site's frame (metres).
    public enum Shape: Hashable, Sendable {
        /// Within `radius` of (`x`, `y`).
        case circle(x: Double, y: Double, radius: Double)
        /// Within the axis-aligned rectangle.
        case rectangle(xMin: Double, xMax: Double, yMin: Double, yMax: Double)

        /// Whether the point (`x`, `y`) is inside (edges included).
        public func contains(x px: Double, y py: Double) -> Bool {
            switch self {
            case .circle(let x, let y, let radius):
                let dx = px - x
                let dy = py - y
                return dx * dx + dy * dy <= radius * radius
            case .rectangle(let xMin, let xMax, let yMin, let yMax):
                return px >= xMin && px <= xMax && py >= yMin && py <= yMax
            }
        }
    }

    /// The area options.
    public struct Configuration: Hashable, Sendable {
        /// The area.
        public var shape: Shape
        /// Consecutive cycles inside required (default 2).
        public var cycles: Int
        /// When set, positions whose error exceeds it (metres) count as outside.
        public var maximumError: Double?
        /// The base options (default: reset when the condition stops holding).
        public var base: StrategyBaseConfiguration

        /// Creates a configuration.
        public init(
            shape: Shape, cycles: Int = 2, maximumError: Double? = nil,
            base: StrategyBaseConfiguration = .init(resetWhenConditionInvalid: true)
        ) {
            self.shape = shape
            self.cycles = cycles
            self.maximumError = maximumError
            self.base = base
        }
    }

    /// The key configuration uses.
    public static let key = "area"

    /// The area options.
    public let options: Configuration

    /// Creates the strategy.
    public init(_ options: Configuration, capacity: Int = 0) {
        self.options = options
        super.init(initialValue: ConsecutiveCount(), configuration: options.base, capacity: capacity)
    }

    public override var key: String { Self.key }

    public override func isPresent(_ beacon: RangedBeacon) -> Bool {
        guard beacon.seenThisCycle, let position = beacon.position else { return false }
        if let maximum = options.maximumError, position.error > maximum { return false }
        return options.shape.contains(x: position.x, y: position.y)
    }

    public override func updateAlertParameter(_ run: inout ConsecutiveCount, beacon: RangedBeacon?, now: Timestamp) {
        let inside = if let beacon { isPresent(beacon) } else { false }
        run.record(inside)
    }

    public override func isConditionValid(_ run: ConsecutiveCount, now: Timestamp) -> Bool {
        run.cycles >= options.cycles
    }
}
