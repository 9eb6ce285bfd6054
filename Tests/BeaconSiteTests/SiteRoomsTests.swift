import BeaconCore
import BeaconRanging
import BeaconSiteReport
import Testing

@testable import BeaconSite

/// The hub's room stage alone (`SiteRooms`): which room's gateways the offline guard asks about,
/// under each rule, and the room changes as region events named after the rooms.
@Suite("SiteRooms: the offline guard of each rule, and room changes as region events")
struct SiteRoomsTests {
    static let second: Int64 = 1_000_000_000

    /// West and east with a gateway each, and a hall outlined without any.
    static func rooms() throws -> SiteRooms {
        let layout = try SiteLayout(
            gateways: [
                SiteGateway(id: "w", room: "west", position: Vector3(x: 2, y: 5, z: 2)),
                SiteGateway(id: "e", room: "east", position: Vector3(x: 18, y: 5, z: 2)),
            ],
            roomOutlines: [
                SiteRoomOutline(room: "west", corners: SiteRoomOutline.rectangle(SIMD2(0, 0), SIMD2(10, 10))),
                SiteRoomOutline(room: "east", corners: SiteRoomOutline.rectangle(SIMD2(10, 0), SIMD2(20, 10))),
                SiteRoomOutline(room: "hall", corners: SiteRoomOutline.rectangle(SIMD2(0, 10), SIMD2(20, 14))),
            ])
        return SiteRooms(layout: layout, rule: RoomHysteresis(margin: 3, minimumDwell: .seconds(2)))
    }

    /// Both gateways reported at 1 s; at `now` they are online (before 11 s) or offline (after).
    static func liveness(at now: Int64) -> GatewayLiveness {
        var liveness = GatewayLiveness(count: 2, offlineAfter: 10 * second, cycle: second)
        liveness.noteReport(gateway: 0, at: 1 * second)
        liveness.noteReport(gateway: 1, at: 1 * second)
        _ = liveness.update(at: now)
        return liveness
    }

    @Test("the rooms, scores and gateways come from the layout: an outlined room without gateways has none")
    func fromTheLayout() throws {
        let rooms = try Self.rooms()
        #expect(rooms.names == ["west", "east", "hall"])
        #expect(rooms.gatewaysOfRoom == [[0], [1], []])
        #expect(rooms.scores.count == 3 && rooms.scores.allSatisfy { $0 == -.infinity })
        #expect(!rooms.isEmpty)
    }

    @Test(
        "by the posterior's shares: a room whose gateways are all offline is unknown, one without gateways never is",
        arguments: [("west", 0, true), ("hall", 2, false)])
    func sharesAndOfflineGateways(room: String, index: Int, offline: Bool) throws {
        let rooms = try Self.rooms()
        var shares: [Float] = [0.05, 0.05, 0.05]
        shares[index] = 0.9
        var memory = RoomMemory()
        let online = rooms.decide(
            &memory, shares: shares, gateways: 2, now: 5 * Self.second, liveness: Self.liveness(at: 5 * Self.second))
        #expect(memory.room == Int32(index) && !memory.unknown && !online.roomOffline)
        let later = rooms.decide(
            &memory, shares: shares, gateways: 2, now: 30 * Self.second, liveness: Self.liveness(at: 30 * Self.second))
        #expect(later.roomOffline == offline)
        #expect(memory.unknown == offline, "\(room)")
        #expect(memory.room == Int32(index), "the room is kept for when a gateway is back")
    }

    @Test("by the gateways' scores: a beacon whose room's gateways are all offline is unknown when the room hears nothing")
    func scoresAndOfflineGateways() throws {
        var rooms = try Self.rooms()
        var memory = RoomMemory()
        rooms.scores = [-60, -80, -.infinity]
        _ = rooms.decide(&memory, gateways: 2, now: 5 * Self.second, liveness: Self.liveness(at: 5 * Self.second))
        #expect(memory.room == 0 && !memory.unknown)
        rooms.scores = [-.infinity, -80, -.infinity]
        _ = rooms.decide(&memory, gateways: 1, now: 30 * Self.second, liveness: Self.liveness(at: 30 * Self.second))
        #expect(memory.unknown, "west's only gateway is offline")
        #expect(memory.room == 0)
    }

    @Test("the room changes as region events named after the rooms: an entry, and the exit when the beacon leaves")
    func regionEvents() throws {
        let rooms = try Self.rooms()
        let beacon = BeaconID.iBeacon(uuidHigh: 0x2F23_4454_CF6D_4A0F, uuidLow: 0xADF2_F491_1BA9_FFA6, major: 1, minor: 2)
        var memory = RoomMemory()
        var events: [RegionEvent] = []
        let step = rooms.decide(
            &memory, shares: [0, 0.9, 0.1], gateways: 2, now: 5 * Self.second, liveness: Self.liveness(at: 5 * Self.second))
        rooms.report(step, of: beacon, at: Timestamp(nanosecondsSinceEpoch: 5 * Self.second), into: &events)
        rooms.leave(&memory, of: beacon, at: Timestamp(nanosecondsSinceEpoch: 9 * Self.second), into: &events)
        #expect(events.map(\.kind) == [.enter, .exit])
        #expect(events.map(\.regionID) == ["east", "east"])
        #expect(events.allSatisfy { $0.beacon == beacon })
        #expect(memory.shown == -1, "left: nothing shown")
    }
}
