/// Where a beacon is on a site, in the site's metric frame (metres), with an uncertainty.
///
/// A site hub estimates it from several gateways' distances (multilateration) or, with fewer
/// gateways, from their positions (a weighted centroid); a single gateway's ranging leaves it
/// `nil`.
public struct BeaconPosition: Hashable, Sendable {
    /// East (or the floor plan's x axis), metres.
    public var x: Double
    /// North (or the floor plan's y axis), metres.
    public var y: Double
    /// Height, metres.
    public var z: Double
    /// The estimate's uncertainty: the radius, in metres, within which the true position is
    /// expected to lie about two times out of three (one standard deviation of the horizontal
    /// error).
    public var error: Double

    /// Creates a position.
    @inlinable
    public init(x: Double, y: Double, z: Double, error: Double) {
        self.x = x
        self.y = y
        self.z = z
        self.error = error
    }
}
