/// Something people cannot walk through or stand in, drawn in site coordinates (metres, the
/// gateways' frame): a wall, or a block (a shelf, a row of desks, a lift shaft). The grid filter
/// (`GridTracking`) never moves a beacon's probability across a wall or into a block.
///
/// ```yaml
/// walls:                                   # polylines
///   - [[0, 0], [20, 0], [20, 12]]
///   - {line: [[8, 0], [8, 5]], floor: ground}
/// blocks:                                  # polygons
///   - [[2, 2], [6, 2], [6, 4], [2, 4]]
/// ```
public struct SiteObstacle: Hashable, Sendable {
    /// The obstacle's outline.
    public enum Shape: Hashable, Sendable {
        /// A wall along these points (at least two), not closed.
        case wall([SIMD2<Double>])
        /// The area inside this polygon (at least three corners; the last joins the first).
        case block([SIMD2<Double>])
    }

    /// Its outline.
    public var shape: Shape
    /// The floor it stands on (one of the gateways' floors); `nil`: every floor.
    public var floor: String?

    /// Creates an obstacle.
    public init(_ shape: Shape, floor: String? = nil) {
        self.shape = shape
        self.floor = floor
    }

    /// The outline's points.
    public var points: [SIMD2<Double>] {
        switch shape {
        case .wall(let points), .block(let points): points
        }
    }

    /// Whether `point` lies inside the block (even-odd rule); `false` for a wall.
    public func encloses(_ point: SIMD2<Double>) -> Bool {
        guard case .block(let corners) = shape else { return false }
        return SiteRoomOutline.polygon(corners, encloses: point)
    }
}
