import BeaconCore
import BeaconDevices
import Testing

/// A person's place from what they carry, cycle by cycle: the member whose room changed last
/// decides the room (the phone left on a desk, the watch that walks away).
@Suite("People's places")
struct PeoplePlacesTests {
    static let phone = BeaconID.device(named: "ada-phone")!
    static let watch = BeaconID.device(named: "ada-watch")!
    static let badge = BeaconID.device(named: "bob-badge")!
    static let t0 = Timestamp(seconds: 1_700_000_000)
    static let people = [
        Person(name: "Ada", members: [phone, watch]), Person(name: "Bob", members: [badge]),
    ]

    /// An update at second `second` with each `(member, room)` tracked (room "?" is unknown).
    static func update(_ second: Int, _ members: [(BeaconID, String?)]) -> RangingUpdate {
        let time = t0 + .seconds(Int64(second))
        var update = RangingUpdate(cycleStart: time - .seconds(1), time: time, beacons: [])
        for (id, room) in members {
            update.beacons.append(
                RangedBeacon(
                    id: id, lastAddress: BluetoothAddress(rawValue: 1), seenThisCycle: true, sampleCount: 1, lastRSSI: -60,
                    meanRSSI: -60, filteredRSSI: -60, measuredPower: nil, distance: 1, accuracy: 1, proximity: .near,
                    firstSeen: t0, lastSeen: time, room: room == "?" ? nil : room, roomUnknown: room == "?"))
        }
        return update
    }

    @Test(
        "Ada's room after each cycle, with the member that decided it",
        arguments: [
            // Both arrive in the office: the watch came last (same cycle: the first in order wins).
            ([[(phone, "office"), (watch, "office")]], "office", phone),
            // She leaves the phone on the desk and walks to the kitchen with her watch.
            ([[(phone, "office"), (watch, "office")], [(phone, "office"), (watch, "kitchen")]], "kitchen", watch),
            // ... and comes back: the watch changes rooms again.
            (
                [
                    [(phone, "office"), (watch, "office")], [(phone, "office"), (watch, "kitchen")],
                    [(phone, "office"), (watch, "office")],
                ],
                "office", watch
            ),
            // The watch goes out of range in the kitchen: the phone's room stands.
            (
                [[(phone, "office"), (watch, "office")], [(phone, "office"), (watch, "kitchen")], [(phone, "office")]], "office",
                phone
            ),
            // The watch's room becomes unknown: it decides nothing; the phone does.
            ([[(phone, "office"), (watch, "office")], [(phone, "office"), (watch, "?")]], "office", phone),
        ] as [([[(BeaconID, String?)]], String?, BeaconID?)])
    func rule(cycles: [[(BeaconID, String?)]], room: String?, by: BeaconID?) {
        var places = PeoplePlaces(people: Self.people)
        for (index, members) in cycles.enumerated() { places.update(Self.update(index + 1, members)) }
        let ada = places.places[0]
        #expect(ada.present)
        #expect(ada.room == room)
        #expect(ada.by == by)
    }

    @Test("present without a room on a single gateway; absent when nothing they carry is tracked; occupancy by room")
    func presenceAndOccupancy() {
        var places = PeoplePlaces(people: Self.people)
        places.update(Self.update(1, [(Self.phone, nil)]))
        #expect(places.places[0] == PeoplePlaces.Place(person: "Ada", present: true, room: nil, by: nil))
        #expect(places.places[1] == PeoplePlaces.Place(person: "Bob", present: false, room: nil, by: nil))
        places.update(Self.update(2, [(Self.phone, "office"), (Self.badge, "office")]))
        #expect(places.occupancy == ["office": ["Ada", "Bob"]])
        places.update(Self.update(3, []))
        #expect(places.places.allSatisfy { !$0.present && $0.room == nil })
        #expect(places.occupancy.isEmpty)
    }
}
