import BeaconCore
import Testing

@Suite("A room's outline: inside, and a walled room's walls and doors")
struct SiteRoomOutlineTests {
    static let square = SiteRoomOutline.rectangle(SIMD2(0, 0), SIMD2(10, 10))

    /// Whether two lists of walls match point by point, to a micrometre.
    static func same(_ a: [[SIMD2<Double>]], _ b: [[SIMD2<Double>]]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { p, q in
                p.count == q.count && zip(p, q).allSatisfy { u, v in ((u - v) * (u - v)).sum() < 1e-12 }
            }
    }

    @Test("an outline without doors: is no wall at all; with doors: [] it is its four edges")
    func wallsWithoutDoors() {
        #expect(SiteRoomOutline(room: "a", corners: Self.square).walls.isEmpty)
        #expect(
            Self.same(
                SiteRoomOutline(room: "a", corners: Self.square, doors: []).walls,
                [
                    [SIMD2(0, 0), SIMD2(10, 0)], [SIMD2(10, 0), SIMD2(10, 10)], [SIMD2(10, 10), SIMD2(0, 10)],
                    [SIMD2(0, 10), SIMD2(0, 0)],
                ]))
    }

    @Test("a door opens its width of the edge it lies on, centred where it lies along it, even a little off the wall")
    func doorOpensItsWidth() {
        let outline = SiteRoomOutline(
            room: "a", corners: Self.square, doors: [SiteDoor(center: SIMD2(5, -0.3), width: 2)])
        #expect(
            Self.same(
                outline.walls,
                [
                    [SIMD2(0, 0), SIMD2(4, 0)], [SIMD2(6, 0), SIMD2(10, 0)], [SIMD2(10, 0), SIMD2(10, 10)],
                    [SIMD2(10, 10), SIMD2(0, 10)], [SIMD2(0, 10), SIMD2(0, 0)],
                ]))
    }

    @Test("a door at a corner opens both edges; overlapping doors open their union; one wider than its edge opens it all")
    func cornersAndOverlaps() {
        let corner = SiteRoomOutline(room: "a", corners: Self.square, doors: [SiteDoor(center: SIMD2(0, 0), width: 2)])
        #expect(Self.same([corner.walls.first ?? []], [[SIMD2(1, 0), SIMD2(10, 0)]]))
        #expect(Self.same([corner.walls.last ?? []], [[SIMD2(0, 10), SIMD2(0, 1)]]))
        let overlapping = SiteRoomOutline(
            room: "a", corners: Self.square,
            doors: [SiteDoor(center: SIMD2(4, 0), width: 2), SiteDoor(center: SIMD2(5, 0), width: 2)])
        #expect(Self.same(Array(overlapping.walls.prefix(2)), [[SIMD2(0, 0), SIMD2(3, 0)], [SIMD2(6, 0), SIMD2(10, 0)]]))
        let wide = SiteRoomOutline(room: "a", corners: Self.square, doors: [SiteDoor(center: SIMD2(5, 0), width: 30)])
        #expect(wide.walls.count == 3)
        #expect(!wide.walls.contains { $0.allSatisfy { $0.y == 0 } })
    }

    @Test("a door opens the outline only within half a metre of an edge")
    func doorsOnTheOutline() {
        let outline = SiteRoomOutline(room: "a", corners: Self.square, doors: [])
        #expect(outline.opens(SiteDoor(center: SIMD2(10.4, 3))))
        #expect(!outline.opens(SiteDoor(center: SIMD2(10.6, 3))))
        #expect(!outline.opens(SiteDoor(center: SIMD2(5, 5))))
    }
}
