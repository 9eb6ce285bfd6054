/// A person the configuration names (`people: [{name: Ada, devices: [ada-phone, ada-watch]}]`):
/// the beacons and enrolled devices they carry, whose rooms decide theirs.
public struct Person: Hashable, Sendable {
    /// Their name: in `/api/site`, metrics and `match: {person: …}`.
    public var name: String
    /// What they carry, in the order written.
    public var members: [BeaconID]

    /// A person carrying `members`.
    public init(name: String, members: [BeaconID]) {
        self.name = name
        self.members = members
    }
}
