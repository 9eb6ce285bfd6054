/// A point (or displacement) in a site's Cartesian frame, in metres: x and y on the floor, z up.
///
/// The one 3-D point of the package: a gateway's antenna, a simulated walker, a beacon's
/// estimated position (``BeaconPosition/point``).
public struct Vector3: Hashable, Sendable {
    /// East–west coordinate (the floor plan's x axis), metres.
    public var x: Double
    /// North–south coordinate (the floor plan's y axis), metres.
    public var y: Double
    /// Height, metres.
    public var z: Double

    /// Creates a point from its three coordinates in metres.
    @inlinable
    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// Creates a point from its three coordinates in metres, named.
    @inlinable
    public init(x: Double, y: Double, z: Double) {
        self.init(x, y, z)
    }

    /// The origin.
    public static let zero = Vector3(0, 0, 0)

    /// The Euclidean distance to `other`, metres.
    @inlinable
    public func distance(to other: Vector3) -> Double {
        let dx = x - other.x, dy = y - other.y, dz = z - other.z
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// The point a fraction `t` (0…1) of the way from `self` to `other`.
    @inlinable
    public func interpolated(to other: Vector3, fraction t: Double) -> Vector3 {
        Vector3(x + (other.x - x) * t, y + (other.y - y) * t, z + (other.z - z) * t)
    }
}
