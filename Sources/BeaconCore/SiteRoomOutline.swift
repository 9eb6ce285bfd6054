/// A room's outline on the floor plan, in site coordinates (metres, the gateways' frame): a
/// polygon. Where a site draws its rooms, a hub's grid filter decides a tracked beacon's room
/// from the share of its position's probability inside each outline, not from which gateway
/// hears it loudest (`Docs/Site.md`, "The floor plan").
///
/// ```yaml
/// rooms:
///   - {name: hall, outline: [[0, 0], [12, 0], [12, 8], [0, 8]]}
///   - {name: shop, min: [12, 0], max: [20, 8], doors: [[12, 4]]}
/// ```
///
/// An outline with `doors:` is a walled room: its edges are walls (``walls``) but where a door
/// opens them; one without is only the room's area.
public struct SiteRoomOutline: Hashable, Sendable {
    /// What a hub reports as the room of a beacon it cannot place: no room may have this name.
    public static let unknownRoom = "unknown"

    /// The room's name: one the gateways name, or, on a site of one floor, a room of its own that
    /// no gateway is in (the grid filter places tags in it).
    public var room: String
    /// The polygon's corners (at least three; the last joins the first).
    public var corners: [SIMD2<Double>]
    /// The openings of a walled room's outline (`[]`: a walled room without a door); `nil`: the
    /// outline is not walled.
    public var doors: [SiteDoor]?

    /// Creates an outline; with `doors`, a walled one.
    public init(room: String, corners: [SIMD2<Double>], doors: [SiteDoor]? = nil) {
        self.room = room
        self.corners = corners
        self.doors = doors
    }

    /// Why an outline of `room`, a room no gateway is in, cannot be drawn on a site whose gateways
    /// name `floorCount` floors; `nil` when it can (the grid filter alone places tags in such a
    /// room, and it does not tell floors apart).
    public static func refusal(roomWithoutGateway room: String, floorCount: Int) -> String? {
        if room == unknownRoom { return "'\(room)' cannot name a room: it is what the hub says when it cannot tell" }
        guard floorCount > 1 else { return nil }
        return "room '\(room)' has an outline but no gateway, on a site of \(floorCount) floors: only the grid filter "
            + "can place a tag in such a room, and it does not tell floors apart; give the room a gateway"
    }

    /// The outline's edges, each from a corner to the next (the last back to the first).
    public var edges: [(SIMD2<Double>, SIMD2<Double>)] {
        corners.indices.map { (corners[$0], corners[($0 + 1) % corners.count]) }
    }

    /// The walls of a walled room: each edge, less the stretch each door within
    /// ``SiteDoor/tolerance`` of it opens (its width, centred where the door lies along the edge);
    /// none for an outline that is not walled.
    public var walls: [[SIMD2<Double>]] {
        guard let doors else { return [] }
        var walls: [[SIMD2<Double>]] = []
        for (a, b) in edges {
            let along = b - a
            let length = (along * along).sum().squareRoot()
            guard length > 0 else { continue }
            // The stretches of the edge (as fractions of it) the doors open, in order.
            let gaps = doors.filter { Self.distance($0.center, toSegment: a, b) <= SiteDoor.tolerance }
                .map { door -> (Double, Double) in
                    let t = Self.fraction(door.center, alongSegment: a, b)
                    let half = door.width / 2 / length
                    return (t - half, t + half)
                }
                .sorted { $0.0 < $1.0 }
            var start = 0.0
            for (open, close) in gaps {
                if open > start { walls.append([a + along * start, a + along * open]) }
                start = max(start, close)
            }
            if start < 1 { walls.append([a + along * start, b]) }
        }
        return walls
    }

    /// Whether `door` lies within ``SiteDoor/tolerance`` of one of the outline's edges.
    public func opens(_ door: SiteDoor) -> Bool {
        edges.contains { Self.distance(door.center, toSegment: $0.0, $0.1) <= SiteDoor.tolerance }
    }

    /// The distance from `point` to the segment from `a` to `b`.
    static func distance(_ point: SIMD2<Double>, toSegment a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        let gap = point - (a + (b - a) * fraction(point, alongSegment: a, b))
        return (gap * gap).sum().squareRoot()
    }

    /// How far along the segment from `a` to `b` the point nearest `point` lies, 0–1.
    static func fraction(_ point: SIMD2<Double>, alongSegment a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        let along = b - a
        let squared = (along * along).sum()
        return squared > 0 ? min(max(((point - a) * along).sum() / squared, 0), 1) : 0
    }

    /// The corners of the rectangle from `min` to `max`, counter-clockwise from `min`.
    public static func rectangle(_ min: SIMD2<Double>, _ max: SIMD2<Double>) -> [SIMD2<Double>] {
        [min, SIMD2(max.x, min.y), max, SIMD2(min.x, max.y)]
    }

    /// Whether `point` lies inside the outline (even-odd rule).
    public func encloses(_ point: SIMD2<Double>) -> Bool { Self.polygon(corners, encloses: point) }

    /// Whether `point` lies inside the polygon with `corners` (even-odd rule; fewer than three
    /// corners enclose nothing).
    public static func polygon(_ corners: [SIMD2<Double>], encloses point: SIMD2<Double>) -> Bool {
        guard corners.count >= 3 else { return false }
        var inside = false
        var j = corners.count - 1
        for i in corners.indices {
            let a = corners[i]
            let b = corners[j]
            if (a.y > point.y) != (b.y > point.y), point.x < (b.x - a.x) * (point.y - a.y) / (b.y - a.y) + a.x {
                inside.toggle()
            }
            j = i
        }
        return inside
    }
}
