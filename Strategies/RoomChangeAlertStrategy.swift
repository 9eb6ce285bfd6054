import BeaconCore
import BeaconStrategyKit

/// Moved: fires at the cycle a site hub first places a beacon in room ``Configuration/to`` after
/// it was in room ``Configuration/from`` (either may be left out: any room), if no more than
/// ``Configuration/within`` passed between the last cycle in the one and the first in the other.
///
/// Rooms come from `RangedBeacon.room`, which only a site hub sets; on one gateway's pipeline
/// this strategy never fires. The condition is an event, so by default each move fires.
public final class RoomChangeAlertStrategy: BeaconAlertStrategyBase<RoomTrail> {
    /// The move options.
    public struct Configuration: Hashable, Sendable {
        /// The room left (nil: any).
        public var from: String?
        /// The room entered (nil: any other).
        public var to: String?
        /// The longest time between the two rooms (default 60 s).
        public var within: Duration
        /// The base options (default: reset when the condition stops holding).
        public var base: StrategyBaseConfiguration

        /// Creates a configuration.
        public init(
            from: String? = nil, to: String? = nil, within: Duration = .seconds(60),
            base: StrategyBaseConfiguration = .init(resetWhenConditionInvalid: true)
        ) {
            self.from = from
            self.to = to
            self.within = within
            self.base = base
        }
    }

    /// The key configuration uses.
    public static let key = "moved"

    /// The move options.
    public let options: Configuration

    /// Creates the strategy.
    public init(_ options: Configuration = .init(), capacity: Int = 0) {
        self.options = options
        super.init(initialValue: RoomTrail(), configuration: options.base, capacity: capacity)
    }

    public override var key: String { Self.key }

    public override var minimumRetention: Duration { options.within }

    public override var regionsObserved: [String] { [options.from, options.to].compactMap { $0 } }

    public override func updateAlertParameter(_ trail: inout RoomTrail, beacon: RangedBeacon?, now: Timestamp) {
        trail.event = false
        guard let beacon, beacon.seenThisCycle, let room = beacon.room else { return }
        if let previous = trail.room, previous != room, let last = trail.lastInRoom, now - last <= options.within,
            options.from.map({ $0 == previous }) ?? true, options.to.map({ $0 == room }) ?? true
        {
            trail.event = true
        }
        trail.room = room
        trail.lastInRoom = now
    }

    public override func isConditionValid(_ trail: RoomTrail, now: Timestamp) -> Bool { trail.event }
}
