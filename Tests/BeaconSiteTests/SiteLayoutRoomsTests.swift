import BeaconCore
import BeaconSiteReport
import Testing

@testable import BeaconSite

/// A site's rooms: the gateways' rooms, then those only outlined (`SiteLayout.draw`).
@Suite("Site layout: rooms of the gateways, and rooms only outlined")
struct SiteLayoutRoomsTests {
    static func gateways(floors: [String?] = [nil, nil, nil]) -> [SiteGateway] {
        [
            SiteGateway(id: "a1", room: "a", position: Vector3(x: 1, y: 1, z: 2.5), floor: floors[0]),
            SiteGateway(id: "a2", room: "a", position: Vector3(x: 1, y: 7, z: 2.5), floor: floors[1]),
            SiteGateway(id: "b1", room: "b", position: Vector3(x: 15, y: 4, z: 2.5), floor: floors[2]),
        ]
    }

    static func outline(_ room: String, doors: [SiteDoor]? = nil) -> SiteRoomOutline {
        SiteRoomOutline(room: room, corners: SiteRoomOutline.rectangle(SIMD2(6, 0), SIMD2(10, 8)), doors: doors)
    }

    @Test("an outline of a room no gateway is in adds the room after the gateways' rooms, without gateways")
    func outlineAddsRoom() throws {
        let layout = try SiteLayout(gateways: Self.gateways(), roomOutlines: [Self.outline("corridor")])
        #expect(layout.rooms == ["a", "b", "corridor"])
        #expect(Array(layout.roomsWithoutGateway) == ["corridor"])
        #expect(layout.gatewaysOfRoom == [[0, 1], [2], []])
        #expect(layout.floor(ofRoom: "corridor") == nil)
        // The gateways' rooms, outlined, add nothing.
        let outlinedA = try SiteLayout(gateways: Self.gateways(), roomOutlines: [Self.outline("a")])
        #expect(outlinedA.rooms == ["a", "b"])
        #expect(outlinedA.roomsWithoutGateway.isEmpty)
    }

    @Test("drawing again replaces the rooms only outlined, as it replaces the outlines")
    func drawingAgainReplaces() throws {
        var layout = try SiteLayout(gateways: Self.gateways(), roomOutlines: [Self.outline("corridor")])
        try layout.draw(obstacles: [], roomOutlines: [Self.outline("store")])
        #expect(layout.rooms == ["a", "b", "store"])
        try layout.draw(obstacles: [], roomOutlines: [])
        #expect(layout.rooms == ["a", "b"])
        #expect(layout.floorOfRoom.count == 2 && layout.gatewaysOfRoom.count == 2)
    }

    @Test("on a site of one named floor, the room is on it, and a walled one's walls too")
    func oneFloor() throws {
        let layout = try SiteLayout(
            gateways: Self.gateways(floors: ["ground", "ground", "ground"]),
            roomOutlines: [Self.outline("corridor", doors: [SiteDoor(center: SIMD2(6, 4))])])
        #expect(layout.floor(ofRoom: "corridor") == "ground")
        #expect(!layout.obstacles.isEmpty)
        #expect(layout.obstacles.allSatisfy { $0.floor == "ground" })
    }

    @Test("refused: on a site of several floors, named unknown, or outlined twice")
    func refusals() {
        #expect {
            try SiteLayout(
                gateways: Self.gateways(floors: ["ground", "ground", "first"]), roomOutlines: [Self.outline("corridor")])
        } throws: { error in
            "\(error)".contains("room 'corridor' has an outline but no gateway, on a site of 2 floors")
        }
        #expect {
            try SiteLayout(gateways: Self.gateways(), roomOutlines: [Self.outline("unknown")])
        } throws: { error in
            "\(error)".contains("'unknown' cannot name a room")
        }
        #expect {
            try SiteLayout(gateways: Self.gateways(), roomOutlines: [Self.outline("corridor"), Self.outline("corridor")])
        } throws: { error in
            "\(error)".contains("room 'corridor' is outlined twice")
        }
    }
}
