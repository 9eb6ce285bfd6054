import FoundationEssentials

/// Which beacons a rule applies to: any beacon, or those with a given UUID (iBeacon proximity
/// UUID / AltBeacon id1), optionally narrowed by major and minor (id2 / id3), or an Eddystone
/// namespace, optionally narrowed by instance, or the named beacons with a tag, or one identity.
public struct BeaconMatch: Hashable, Sendable, CustomStringConvertible {
    /// The identity constraint.
    public enum Constraint: Hashable, Sendable {
        /// Every beacon.
        case any
        /// iBeacon / AltBeacon identities with this UUID, and optionally this major and minor.
        case uuid(UUID, major: UInt16?, minor: UInt16?)
        /// Eddystone-UID identities in this namespace (20 hex digits), optionally this instance (12).
        case eddystone(namespaceHex: String, instanceHex: String?)
        /// The named beacons tagged `tag` (`match: {tag: staff}`): `ids` are theirs, taken from
        /// the configuration's `beacons:` by ``BeaconMatch/resolved(in:)``.
        case tagged(String, ids: Set<BeaconID>)
        /// This one identity (`match: {device: ada-phone}`: an enrolled device).
        case identity(BeaconID)
        /// What the person named carries (`match: {person: Ada}`): `ids` are their members.
        case person(String, ids: Set<BeaconID>)
    }

    /// The constraint.
    public let constraint: Constraint
    /// The constraint's UUID as the two words `BeaconID` stores, so matching compares integers.
    @usableFromInline let uuidWords: (high: UInt64, low: UInt64)?
    /// The UUID constraint's major and minor, kept beside the words: matching a UUID then reads
    /// plain fields and never the constraint's payload (which would retain and release it).
    @usableFromInline let uuidMajor: UInt16?
    @usableFromInline let uuidMinor: UInt16?
    /// Whether the constraint is ``Constraint/any``.
    @usableFromInline let matchesEvery: Bool

    public init(_ constraint: Constraint) {
        self.constraint = constraint
        matchesEvery = constraint == .any
        if case .uuid(let uuid, let major, let minor) = constraint {
            let reference = BeaconID.iBeacon(uuid: uuid, major: 0, minor: 0)
            uuidWords = (reference.high, reference.low)
            uuidMajor = major
            uuidMinor = minor
        } else {
            uuidWords = nil
            uuidMajor = nil
            uuidMinor = nil
        }
    }

    public static func == (a: BeaconMatch, b: BeaconMatch) -> Bool { a.constraint == b.constraint }
    public func hash(into hasher: inout Hasher) { hasher.combine(constraint) }

    /// Matches every beacon.
    public static let any = BeaconMatch(.any)

    /// iBeacon / AltBeacon identities with this UUID, and optionally this major and minor.
    public static func uuid(_ uuid: UUID, major: UInt16? = nil, minor: UInt16? = nil) -> BeaconMatch {
        BeaconMatch(.uuid(uuid, major: major, minor: minor))
    }

    /// Eddystone-UID identities in this namespace (20 hex digits), optionally this instance (12).
    public static func eddystone(namespace: String, instance: String? = nil) -> BeaconMatch {
        BeaconMatch(.eddystone(namespaceHex: namespace, instanceHex: instance))
    }

    /// The named beacons tagged `tag`, as `directory` has them.
    public static func tagged(_ tag: String, in directory: BeaconDirectory) -> BeaconMatch {
        BeaconMatch(.tagged(tag, ids: directory.ids(tagged: tag)))
    }

    /// The match with a tag's beacons looked up in `directory` (other constraints unchanged).
    public func resolved(in directory: BeaconDirectory) -> BeaconMatch {
        guard case .tagged(let tag, _) = constraint else { return self }
        return .tagged(tag, in: directory)
    }

    /// True when `id` satisfies the constraint.
    @inlinable
    public func matches(_ id: BeaconID) -> Bool {
        if let words = uuidWords {
            guard id.kind.rawValue <= BeaconID.Kind.altBeacon.rawValue, id.high == words.high, id.low == words.low else {
                return false
            }
            if let major = uuidMajor, id.major != major { return false }
            if let minor = uuidMinor, id.minor != minor { return false }
            return true
        }
        if matchesEvery { return true }
        switch constraint {
        case .any:
            return true
        case .uuid(_, let major, let minor):
            guard id.kind.rawValue <= BeaconID.Kind.altBeacon.rawValue, let words = uuidWords, id.high == words.high,
                id.low == words.low
            else { return false }
            if let major, id.major != major { return false }
            if let minor, id.minor != minor { return false }
            return true
        case .eddystone(let namespace, let instance):
            guard id.kind == .eddystoneUID, id.eddystoneNamespaceHex == namespace.lowercased() else { return false }
            if let instance, id.eddystoneInstanceHex != instance.lowercased() { return false }
            return true
        case .tagged(_, let ids):
            return ids.contains(id)
        case .identity(let only):
            return id == only
        case .person(_, let ids):
            return ids.contains(id)
        }
    }

    public var description: String {
        switch constraint {
        case .any: "any beacon"
        case .uuid(let uuid, let major, let minor):
            "uuid \(uuid.uuidString)" + (major.map { " major \($0)" } ?? "") + (minor.map { " minor \($0)" } ?? "")
        case .eddystone(let namespace, let instance):
            "eddystone namespace \(namespace)" + (instance.map { " instance \($0)" } ?? "")
        case .tagged(let tag, _): "beacons tagged \(tag)"
        case .identity(let id): "beacon \(id)"
        case .person(let name, _): "what \(name) carries"
        }
    }
}
