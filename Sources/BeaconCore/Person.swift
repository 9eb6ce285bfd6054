/// A person the configuration names (`people: [{name: Ada, devices: [ada-phone, ada-watch]}]`):
/// the beacons and enrolled devices they carry, whose rooms decide theirs.
public struct Person: Hashable, Sendable {
    /// Their name: in `/api/site`, metrics and `match: {person: …}`.
    public var name: String
    /// What they carry, in the order written.
    public var members: [BeaconID]
    /// Other names the configuration knows them by, never output: with pseudonyms, the name it
    /// wrote (``name`` is then the pseudonym).
    public var aliases: [String]

    /// A person carrying `members`.
    public init(name: String, members: [BeaconID], aliases: [String] = []) {
        self.name = name
        self.members = members
        self.aliases = aliases
    }

    /// Whether `text` is their name or one of their aliases (what `match: {person: …}` and
    /// `beacond forget` accept).
    public func isNamed(_ text: String) -> Bool { name == text || aliases.contains(text) }
}
