/// A beacon the configuration names (`beacons: [{id: …, name: …, tags: […]}]`): the people and
/// things a site knows, as opposed to whatever else is heard.
public struct NamedBeacon: Hashable, Sendable {
    /// The beacon's identity.
    public var id: BeaconID
    /// What to call it: "Anna's badge".
    public var name: String
    /// Its tags, in the order written, without repeats: `staff`, `visitor`, ….
    public var tags: [String]

    /// Creates a named beacon.
    public init(id: BeaconID, name: String, tags: [String] = []) {
        self.id = id
        self.name = name
        self.tags = tags
    }
}
