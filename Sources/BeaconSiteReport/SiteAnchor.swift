import BeaconCore

/// A beacon at a known, fixed position: a reference tag on a wall, or a gateway that advertises
/// its own identity (``SiteGatewayBeacon``). Every gateway that hears an anchor gives the hub a
/// measurement at a known distance, which it uses to calibrate the site's radio model.
public struct SiteAnchor: Hashable, Sendable {
    /// The anchor's identity, as it advertises it.
    public var id: BeaconID
    /// Where it is, in the site's frame, metres.
    public var position: Vector3
    /// The floor it is on (`nil` for a single-floor site).
    public var floor: String?
    /// The gateway that advertises as this anchor (its index in the layout), `nil` for a tag.
    /// A gateway never calibrates against itself.
    public var gateway: Int?

    /// Creates an anchor.
    public init(id: BeaconID, position: Vector3, floor: String? = nil, gateway: Int? = nil) {
        self.id = id
        self.position = position
        self.floor = floor
        self.gateway = gateway
    }
}
