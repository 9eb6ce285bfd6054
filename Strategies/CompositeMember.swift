import BeaconCore

/// ``CompositeAlertStrategy``'s memory of one beacon: which beacon it is, so the condition can
/// ask the children about it.
public struct CompositeMember: Hashable, Sendable, Codable {
    /// The beacon (set at its first update).
    public var id: BeaconID?

    /// A member not yet updated.
    public init(id: BeaconID? = nil) { self.id = id }
}
