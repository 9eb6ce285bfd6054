import BeaconCore
import FoundationEssentials

/// A set of beacons, by identity, whose entries and exits the ranging loop reports.
///
/// A beacon enters a region with its first sighting (or its first after an exit) and exits at
/// the first cycle boundary at or after `lastSeen + exitTimeout`.
public struct BeaconRegion: Hashable, Sendable {
    /// Which identities belong to the region.
    public enum Constraint: Hashable, Sendable {
        /// Every beacon.
        case any
        /// iBeacon / AltBeacon identities with this proximity UUID (AltBeacon id1).
        case uuid(UUID)
        /// … and this major (id2).
        case uuidMajor(UUID, major: UInt16)
        /// … and this minor (id3): a single beacon.
        case uuidMajorMinor(UUID, major: UInt16, minor: UInt16)
        /// Eddystone-UID identities with this 10-byte namespace (20 hex digits).
        case eddystoneNamespace(String)
    }

    /// The region's identifier, reported in ``RegionEvent/regionID``.
    public var id: String
    /// Which identities belong to it.
    public var constraint: Constraint
    /// How long after its last sighting a beacon exits; `nil` uses the configuration's default.
    public var exitTimeout: Duration?

    /// A region.
    public init(id: String, constraint: Constraint, exitTimeout: Duration? = nil) {
        self.id = id
        self.constraint = constraint
        self.exitTimeout = exitTimeout
    }

    /// True when `beacon` belongs to the region.
    public func contains(_ beacon: BeaconID) -> Bool {
        switch constraint {
        case .any:
            return true
        case .uuid(let uuid):
            return beacon.kind != .eddystoneUID && Self.sameUUID(beacon, uuid)
        case .uuidMajor(let uuid, let major):
            return beacon.kind != .eddystoneUID && Self.sameUUID(beacon, uuid) && beacon.major == major
        case .uuidMajorMinor(let uuid, let major, let minor):
            return beacon.kind != .eddystoneUID && Self.sameUUID(beacon, uuid)
                && beacon.major == major && beacon.minor == minor
        case .eddystoneNamespace(let namespace):
            return beacon.kind == .eddystoneUID && beacon.eddystoneNamespaceHex == namespace.lowercased()
        }
    }

    private static func sameUUID(_ beacon: BeaconID, _ uuid: UUID) -> Bool {
        let reference = BeaconID.iBeacon(uuid: uuid, major: 0, minor: 0)
        return beacon.high == reference.high && beacon.low == reference.low
    }
}
