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

    /// Present when heard: the base's own `isPresent(_:)`.
    public override var presenceRule: PresenceRule { .seen }

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

    /// Quiet (see `QuietPeriod`) except at the event's cycle and the one after it: while the
    /// beacon is around, until it has been unseen for ``Configuration/away``; once away (or before
    /// it was ever seen), until it is seen.
    public override func quietPeriod(after edge: PresenceEdge, now: Timestamp) -> QuietPeriod? {
        if edge.event { return nil }
        if edge.away || edge.lastSeen == nil { return QuietPeriod(endsWhenPresent: true) }
        return QuietPeriod(unseenFor: options.away)
    }

    /// The skipped cycles only moved the last sighting on (the beacon was not away meanwhile).
    public override func catchUp(_ edge: inout PresenceEdge, lastPresent: Timestamp?, presentAtLastCycle: Bool) {
        guard let lastPresent else { return }
        edge.lastSeen = lastPresent
        edge.away = false
        edge.event = false
    }
}
