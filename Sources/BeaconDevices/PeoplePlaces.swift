import BeaconCore

/// Where each person is, decided every cycle from everything they carry.
///
/// A person is present while any of their beacons or devices is tracked. Their room is the room of
/// the one among them **whose room changed last**: a phone left on a desk stays in its room while
/// the watch that walks away changes rooms, so the person follows the watch; when they come back to
/// the desk, the watch changes rooms again and the person is at the desk. A member with no room
/// (a single gateway, or `unknown`) does not decide a room; with no member in a room, a present
/// person's room is `nil` (on a single gateway: present, no more).
///
/// Time comes from the updates. A cycle looks up each ranged beacon once among the members and
/// keeps only theirs, in a table whose capacity is kept between cycles.
public struct PeoplePlaces: Sendable {
    /// One person's place after the latest cycle.
    public struct Place: Sendable, Equatable {
        /// Their name.
        public var person: String
        /// Whether any of their members is tracked.
        public var present: Bool
        /// Their room, when a member in a room decides one.
        public var room: String?
        /// The member whose room decided it.
        public var by: BeaconID?

        /// A place: `person`, present or not, in `room` as `by` says.
        public init(person: String, present: Bool, room: String?, by: BeaconID?) {
            self.person = person
            self.present = present
            self.room = room
            self.by = by
        }
    }

    /// The people, in configuration order.
    public let people: [Person]
    /// Per member: the index of the person who carries it.
    private let owners: [BeaconID: Int]
    /// Per member: its room and when that room began (the member's latest room change).
    private var memberRooms: [BeaconID: (room: String?, since: Timestamp)] = [:]
    /// The members ranged in the cycle being taken, with their rooms (kept between cycles).
    private var cycleRooms: [BeaconID: String?] = [:]
    /// The people's places after the latest cycle, in ``people`` order.
    public private(set) var places: [Place]

    /// Places for `people`, all absent until a cycle says otherwise.
    public init(people: [Person]) {
        self.people = people
        var owners: [BeaconID: Int] = [:]
        for (index, person) in people.enumerated() { for member in person.members { owners[member] = index } }
        self.owners = owners
        places = people.map { Place(person: $0.name, present: false, room: nil, by: nil) }
    }

    /// Takes one cycle's update: each member's room, then each person's place.
    public mutating func update(_ update: RangingUpdate) {
        guard !people.isEmpty else { return }
        cycleRooms.removeAll(keepingCapacity: true)
        for beacon in update.beacons where owners[beacon.id] != nil {
            // updateValue: a member without a room is kept, as tracked.
            cycleRooms.updateValue(beacon.roomUnknown ? nil : beacon.room, forKey: beacon.id)
        }
        for index in people.indices {
            for member in people[index].members {
                if let room = cycleRooms[member] {
                    note(member, room: room, at: update.time)
                } else {
                    memberRooms[member] = nil
                }
            }
            places[index] = place(of: index)
        }
    }

    /// Takes one member's change (a presence change, as MQTT and Home Assistant get them): tracked
    /// or not, in `room` (`nil`: none, or unknown) at `time`. Returns the index of the person whose
    /// place it may change, or `nil` when `member` is nobody's.
    @discardableResult
    public mutating func apply(member: BeaconID, tracked: Bool, room: String?, at time: Timestamp) -> Int? {
        guard let index = owners[member] else { return nil }
        if tracked { note(member, room: room, at: time) } else { memberRooms[member] = nil }
        places[index] = place(of: index)
        return index
    }

    /// Records `member` tracked in `room`, starting its room's time when the room changed.
    private mutating func note(_ member: BeaconID, room: String?, at time: Timestamp) {
        if let previous = memberRooms[member], previous.room == room { return }
        memberRooms[member] = (room, time)
    }

    /// The person at `index`'s place from their members' rooms: present when one is tracked, in
    /// the room of the one whose room changed last.
    private func place(of index: Int) -> Place {
        var best: (room: String, since: Timestamp, member: BeaconID)?
        var present = false
        for member in people[index].members {
            guard let state = memberRooms[member] else { continue }
            present = true
            guard let room = state.room else { continue }
            if best.map({ state.since > $0.since }) ?? true { best = (room, state.since, member) }
        }
        return Place(person: people[index].name, present: present, room: best?.room, by: best?.member)
    }

    /// The people in each room, by room, names in configuration order.
    public var occupancy: [String: [String]] {
        var rooms: [String: [String]] = [:]
        for place in places { if let room = place.room { rooms[room, default: []].append(place.person) } }
        return rooms
    }
}
