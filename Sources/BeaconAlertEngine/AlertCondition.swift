import BeaconCore

/// A declarative condition on a beacon's live state and the site's, checked by the engine when a
/// strategy fires (`scheduleCondition`) or when an alert falls due (`deliverWhen`). Every part
/// given must hold; a condition with no part always holds.
public struct AlertCondition: Hashable, Sendable, CustomStringConvertible {
    /// A room's head count.
    public struct Occupancy: Hashable, Sendable {
        /// The room.
        public var room: String
        /// At least this many beacons in it (`nil`: no lower bound).
        public var atLeast: Int?
        /// At most this many (`nil`: no upper bound).
        public var atMost: Int?

        /// Creates the condition.
        public init(room: String, atLeast: Int? = nil, atMost: Int? = nil) {
            self.room = room
            self.atLeast = atLeast
            self.atMost = atMost
        }
    }

    /// A named event posted recently.
    public struct RecentEvent: Hashable, Sendable {
        /// The event's name (`POST /events/NAME`).
        public var name: String
        /// How recently.
        public var within: Duration

        /// Creates the condition.
        public init(name: String, within: Duration) {
            self.name = name
            self.within = within
        }
    }

    /// The beacon is in range (`true`) or not (`false`).
    public var inRange: Bool?
    /// The beacon is in this region.
    public var region: String?
    /// The beacon's room is this one (a site hub's rooms).
    public var room: String?
    /// The beacon is at most this far: `near` holds for immediate and near.
    public var proximity: Proximity?
    /// The beacon's estimated distance is at most this, metres.
    public var maxDistance: Double?
    /// A room's head count.
    public var occupancy: Occupancy?
    /// A named event was posted for the beacon (or for all) recently.
    public var event: RecentEvent?
    /// The local time of day and day of the week (a window's days, from, to, time zone).
    public var time: DeliveryWindow?

    /// Creates a condition from its parts.
    public init(
        inRange: Bool? = nil, region: String? = nil, room: String? = nil, proximity: Proximity? = nil,
        maxDistance: Double? = nil, occupancy: Occupancy? = nil, event: RecentEvent? = nil, time: DeliveryWindow? = nil
    ) {
        self.inRange = inRange
        self.region = region
        self.room = room
        self.proximity = proximity
        self.maxDistance = maxDistance
        self.occupancy = occupancy
        self.event = event
        self.time = time
    }

    /// `nil` when the condition holds for `beacon` at `now` in `world`; otherwise the first part
    /// that does not, in words ("the beacon is in room café, not lobby").
    public func failure(for beacon: BeaconID, now: Timestamp, in world: any AlertWorld) -> String? {
        let ranged = world.beacon(beacon)
        if let inRange, inRange != (ranged != nil) {
            return inRange ? "the beacon is out of range" : "the beacon is still in range"
        }
        if let region, !world.regions(of: beacon).contains(region) {
            return "the beacon is not in region \(region)"
        }
        if let room {
            guard let current = ranged?.room, !(ranged?.roomUnknown ?? false) else {
                return "the beacon's room is not known (wanted \(room))"
            }
            if current != room { return "the beacon is in room \(current), not \(room)" }
        }
        if let proximity {
            guard let band = ranged?.proximity, band != .unknown, band.rawValue <= proximity.rawValue else {
                return "the beacon is \(ranged?.proximity.name ?? "out of range"), not \(proximity.name) or closer"
            }
        }
        if let maxDistance {
            guard let distance = ranged?.distance, distance <= maxDistance else {
                let shown = ranged?.distance.map { "\(Double(Int($0 * 10)) / 10) m" } ?? "unknown"
                return "the beacon's distance is \(shown), more than \(maxDistance) m"
            }
        }
        if let occupancy {
            let count = world.occupancy(ofRoom: occupancy.room)
            if let low = occupancy.atLeast, count < low { return "room \(occupancy.room) holds \(count), fewer than \(low)" }
            if let high = occupancy.atMost, count > high { return "room \(occupancy.room) holds \(count), more than \(high)" }
        }
        if let event {
            guard let posted = world.lastPosted(event.name, for: beacon), now - posted <= event.within else {
                return "event \(event.name) was not posted in the last \(event.within.humanReadable)"
            }
        }
        if let time, !time.contains(now) {
            return "it is outside \(time)"
        }
        return nil
    }

    /// The parts, as configured: `room lobby, in range`.
    public var description: String {
        var parts: [String] = []
        if let inRange { parts.append(inRange ? "in range" : "out of range") }
        if let region { parts.append("region \(region)") }
        if let room { parts.append("room \(room)") }
        if let proximity { parts.append("\(proximity.name) or closer") }
        if let maxDistance { parts.append("within \(maxDistance) m") }
        if let occupancy {
            parts.append(
                "room \(occupancy.room) holding" + (occupancy.atLeast.map { " at least \($0)" } ?? "")
                    + (occupancy.atMost.map { " at most \($0)" } ?? ""))
        }
        if let event { parts.append("event \(event.name) within \(event.within.humanReadable)") }
        if let time { parts.append("\(time)") }
        return parts.isEmpty ? "always" : parts.joined(separator: ", ")
    }
}

/// `deliverWhen`: a due alert waits until its condition holds, at most `maxWait` after its due
/// time; then it is delivered anyway or dropped, as `then` says.
public struct DeliveryCondition: Hashable, Sendable {
    /// What becomes of an alert whose condition did not hold within `maxWait`.
    public enum Expiry: String, Hashable, Sendable, CaseIterable {
        /// Delivered anyway, with a message saying the condition never held.
        case deliver
        /// Dropped (`cancelled`).
        case drop
    }

    /// The condition.
    public var condition: AlertCondition
    /// The longest wait after the due time.
    public var maxWait: Duration
    /// What happens when the wait runs out.
    public var then: Expiry

    /// Creates the condition; throws on a wait that is not positive.
    public init(condition: AlertCondition, maxWait: Duration, then: Expiry = .drop) throws(AlertPolicyError) {
        guard maxWait > .zero else { throw .invalidDuration(option: "deliverWhen.maxWait", value: maxWait) }
        self.condition = condition
        self.maxWait = maxWait
        self.then = then
    }
}
