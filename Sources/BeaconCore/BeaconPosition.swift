/// Where a beacon is on a site, in the site's metric frame (metres), with an uncertainty.
///
/// A site hub estimates it from several gateways' distances (multilateration) or, with fewer
/// gateways, from their positions (a weighted centroid); a single gateway's ranging leaves it
/// `nil`.
public struct BeaconPosition: Hashable, Sendable {
    /// The estimated point.
    public var point: Vector3
    /// The estimate's uncertainty: the radius, in metres, within which the true position is
    /// expected to lie about two times out of three (one standard deviation of the horizontal
    /// error).
    public var error: Double

    /// East (or the floor plan's x axis), metres.
    @inlinable
    public var x: Double {
        get { point.x }
        set { point.x = newValue }
    }

    /// North (or the floor plan's y axis), metres.
    @inlinable
    public var y: Double {
        get { point.y }
        set { point.y = newValue }
    }

    /// Height, metres.
    @inlinable
    public var z: Double {
        get { point.z }
        set { point.z = newValue }
    }

    /// Creates a position from a point and its uncertainty.
    @inlinable
    public init(point: Vector3, error: Double) {
        self.point = point
        self.error = error
    }

    /// The radius, in metres, within which the true position lies nine times out of ten:
    /// ``error`` × ``radius90Factor``.
    @inlinable
    public var radius90: Double { error * Self.radius90Factor }

    /// ``radius90`` over ``error``. For a Gaussian error it would be 1.52; measured on the real
    /// walk the project has (the philotuxo hall, `Docs/Site.md`, "Honest answers"), the 90th
    /// percentile of the true error over ``error`` is 1.64, so the radius is widened to it.
    public static let radius90Factor = 1.65

    /// Creates a position from its coordinates and uncertainty.
    @inlinable
    public init(x: Double, y: Double, z: Double, error: Double) {
        self.init(point: Vector3(x, y, z), error: error)
    }
}
