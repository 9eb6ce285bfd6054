import BeaconCore
import BeaconStrategyKit

/// Dwell time: fires once a beacon has been present continuously for ``Configuration/dwell``.
///
/// A cycle counts as present when the beacon was seen and, if ``Configuration/minimumProximity``
/// is set, was at least that close, and, if ``Configuration/room`` is set, a site hub placed it
/// in that room (a cycle outside counts like an unseen one). A beacon that
/// was not present for longer than ``Configuration/gap`` starts a new visit at its next present
/// cycle. The condition is "the current visit has lasted `dwell`": it holds from the first present
/// cycle `now` with `now - visit start >= dwell` (the strategy fires then) until the visit ends,
/// through the missed cycles the gap tolerates. It fires at most once per visit and again only
/// after the base's reset: unseen for `maxTimeBeforeReset` or, with `resetWhenConditionInvalid`,
/// as soon as the visit ends (so every visit that lasts `dwell` fires once).
///
/// With a room, a cycle whose room the hub cannot tell (`RangedBeacon.roomUnknown`) is neither in
/// the room nor away: it ends the visit at once — the dwell does not continue through unknown —
/// unless ``Configuration/unknownGrace`` is set, in which case unknown cycles up to that long
/// after the last cycle in the room count as in it.
public final class TimeAlertStrategy: BeaconAlertStrategyBase<TimeVisit> {
    /// The dwell options.
    public struct Configuration: Hashable, Sendable {
        /// How long a visit must last before the alert (default 60 s).
        public var dwell: Duration
        /// The longest absence that does not end a visit (default 3 s).
        public var gap: Duration
        /// When set, only cycles at least this close count as present.
        public var minimumProximity: Proximity?
        /// When set, only cycles in which a site hub places the beacon in this room count as
        /// present: dwell in a room, whichever gateways hear it.
        public var room: String?
        /// With ``room``: how long the room may be unknown and still count as the room (default 0:
        /// an unknown cycle ends the visit).
        public var unknownGrace: Duration
        /// The base options (reset, retention).
        public var base: StrategyBaseConfiguration

        /// Creates a configuration.
        public init(
            dwell: Duration = .seconds(60), gap: Duration = .seconds(3),
            minimumProximity: Proximity? = nil, room: String? = nil, unknownGrace: Duration = .zero,
            base: StrategyBaseConfiguration = .init()
        ) {
            self.dwell = dwell
            self.gap = gap
            self.minimumProximity = minimumProximity
            self.room = room
            self.unknownGrace = unknownGrace
            self.base = base
        }
    }

    /// The key configuration uses.
    public static let key = "time"

    /// The dwell options.
    public let options: Configuration

    /// Creates the strategy; `capacity` pre-sizes the per-beacon table.
    public init(_ options: Configuration = .init(), capacity: Int = 0) {
        self.options = options
        super.init(initialValue: TimeVisit(), configuration: options.base, capacity: capacity)
    }

    public override var key: String { Self.key }

    public override var minimumRetention: Duration { options.gap }

    /// The room, when the dwell is in one (a site hub's rooms count as regions).
    public override var regionsObserved: [String] { options.room.map { [$0] } ?? [] }

    /// ``isPresent(_:)`` as a plain rule, but for a room (its unknown state needs the hook).
    public override var presenceRule: PresenceRule {
        guard options.room == nil else { return .hook }
        return options.minimumProximity.map { .seenWithin($0) } ?? .seen
    }

    public override func isPresent(_ beacon: RangedBeacon) -> Bool {
        guard beacon.seenThisCycle else { return false }
        if let room = options.room, beacon.room != room { return false }
        guard let minimum = options.minimumProximity else { return true }
        return beacon.proximity.isWithin(minimum)
    }

    public override func updateAlertParameter(_ visit: inout TimeVisit, beacon: RangedBeacon?, now: Timestamp) {
        if options.room != nil, let beacon, beacon.roomUnknown {
            // Unknown is its own state: within the grace it is the room, beyond it the visit ends.
            if let known = visit.lastKnown, now - known <= options.unknownGrace, visit.lastDetection != nil {
                visit.presentNow = true
                visit.lastDetection = now
            } else {
                visit = TimeVisit()
            }
            return
        }
        let present = if let beacon { isPresent(beacon) } else { false }
        visit.presentNow = present
        guard present else { return }
        if options.room != nil { visit.lastKnown = now }
        if let last = visit.lastDetection, now - last <= options.gap {
            // Same visit.
        } else {
            visit.start = now
        }
        visit.lastDetection = now
    }

    /// The current visit's length against ``Configuration/dwell`` (zero between visits).
    public override func progress(of visit: TimeVisit, now: Timestamp) -> StrategyProgress? {
        guard let start = visit.start, let last = visit.lastDetection, now - last <= options.gap else {
            return StrategyProgress(elapsed: .zero, of: options.dwell)
        }
        return StrategyProgress(elapsed: last - start, of: options.dwell)
    }

    /// Where the visit stands: none yet, in one (since when), away within the gap, or between
    /// visits — and what counts as present.
    public override func explanation(of visit: TimeVisit, now: Timestamp) -> String? {
        guard let start = visit.start, let last = visit.lastDetection else {
            return "no visit yet; present means \(presenceInWords)"
        }
        if now - last > options.gap {
            return
                "between visits: away (present means \(presenceInWords)) for more than the gap (\(options.gap.humanReadable)) since \(last.timeOfDayString)"
        }
        if visit.presentNow { return "in a visit since \(start.timeOfDayString)" }
        return
            "in a visit since \(start.timeOfDayString), away since \(last.timeOfDayString): it ends after \(options.gap.humanReadable) away"
    }

    /// What a present cycle needs, in words.
    private var presenceInWords: String {
        var parts = ["heard"]
        if let proximity = options.minimumProximity { parts.append("\(proximity.name) or closer") }
        if let room = options.room {
            parts.append(
                "in room \(room)"
                    + (options.unknownGrace > .zero ? " (unknown counts for \(options.unknownGrace.humanReadable))" : ""))
        }
        return parts.joined(separator: ", ")
    }

    /// Quiet (see `QuietPeriod`) while nothing but time passes: between visits until a present
    /// cycle starts one; in a visit until the dwell is reached, or for good once it is, unless
    /// unseen for longer than the gap. Not with a room, whose unknown cycles have their own rule.
    public override func quietPeriod(after visit: TimeVisit, now: Timestamp) -> QuietPeriod? {
        guard options.room == nil else { return nil }
        guard let start = visit.start, let last = visit.lastDetection, now - last <= options.gap else {
            return QuietPeriod(endsWhenPresent: true)
        }
        let visitEnds = options.gap + .nanoseconds(1)
        if last - start >= options.dwell { return QuietPeriod(unseenFor: visitEnds) }
        let reached = start + options.dwell
        // Past the threshold but not present since: the next present cycle reaches it.
        if now >= reached { return QuietPeriod(unseenFor: visitEnds, endsWhenPresent: true) }
        return QuietPeriod(until: reached, unseenFor: visitEnds)
    }

    /// The skipped cycles only moved the latest detection on (within the visit's gap).
    public override func catchUp(_ visit: inout TimeVisit, lastPresent: Timestamp?, presentAtLastCycle: Bool) {
        if let lastPresent { visit.lastDetection = lastPresent }
        visit.presentNow = presentAtLastCycle
    }

    public override func isConditionValid(_ visit: TimeVisit, now: Timestamp) -> Bool {
        guard let start = visit.start, let last = visit.lastDetection, now - last <= options.gap else { return false }
        return last - start >= options.dwell
    }
}
