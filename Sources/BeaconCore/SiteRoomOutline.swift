/// A room's outline on the floor plan, in site coordinates (metres, the gateways' frame): a
/// polygon. Where a site draws its rooms, a hub's grid filter decides a tracked beacon's room
/// from the share of its position's probability inside each outline, not from which gateway
/// hears it loudest (`Docs/Site.md`, "The floor plan").
///
/// ```yaml
/// rooms:
///   - {name: hall, outline: [[0, 0], [12, 0], [12, 8], [0, 8]]}
///   - {name: shop, min: [12, 0], max: [20, 8]}
/// ```
public struct SiteRoomOutline: Hashable, Sendable {
    /// The room's name (one the gateways name).
    public var room: String
    /// The polygon's corners (at least three; the last joins the first).
    public var corners: [SIMD2<Double>]

    /// Creates an outline.
    public init(room: String, corners: [SIMD2<Double>]) {
        self.room = room
        self.corners = corners
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
