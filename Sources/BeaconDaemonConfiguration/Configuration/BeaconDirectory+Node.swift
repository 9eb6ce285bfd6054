import BeaconConfiguration
import BeaconCore

extension BeaconDirectory {
    /// The keys of a `beacons:` entry.
    static let keys = ["id", "name", "tags"]

    /// Reads `beacons: [{id: ibeacon:UUID:MAJOR:MINOR, name: "Anna's badge", tags: [staff]}, …]`:
    /// ids in the forms `ranging.calibrations` takes (`ibeacon:…`, `altbeacon:…`,
    /// `eddystone-uid:…`, or a bare `UUID:MAJOR:MINOR`); a name is required and not empty, tags
    /// are optional words. Unknown keys, a bad id, an id or a name given twice are errors at the
    /// entry's `file:line`.
    public init(node: ConfigNode) throws(ConfigurationError) {
        var beacons: [NamedBeacon] = []
        for item in try node.sequence(of: "named beacons ({id: …, name: …, tags: […]})") {
            try item.checkKeys(allowed: Self.keys)
            let idNode = try item.required("id")
            let text = try idNode.string()
            guard let id = BeaconID(text) else {
                throw idNode.error(
                    "'\(text)' is not a beacon id; write ibeacon:UUID:MAJOR:MINOR, "
                        + "altbeacon:UUID:ID2:ID3 or eddystone-uid:NAMESPACE:INSTANCE")
            }
            if let earlier = beacons.first(where: { $0.id == id }) {
                throw idNode.error("\(id) is named twice (first as '\(earlier.name)'); give each beacon one entry")
            }
            let nameNode = try item.required("name")
            let name = try nameNode.string()
            guard !name.allSatisfy(\.isWhitespace) else {
                throw nameNode.error("a beacon's name must not be empty")
            }
            if beacons.contains(where: { $0.name == name }) {
                throw nameNode.error("two beacons are named '\(name)'; names must be unique (Home Assistant shows them)")
            }
            beacons.append(NamedBeacon(id: id, name: name, tags: try NamedBeacon.tags(item["tags"])))
        }
        self.init(beacons)
    }
}

extension NamedBeacon {
    /// A `tags:` list (of a named beacon or an enrolled device), in the order written, without
    /// repeats; none when `list` is absent.
    static func tags(_ list: ConfigNode?) throws(ConfigurationError) -> [String] {
        guard let list else { return [] }
        var tags: [String] = []
        for tagNode in try list.sequence(of: "tags (words such as staff, visitor)") {
            let tag = try tagNode.string()
            guard !tag.isEmpty, tag.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
                throw tagNode.error("'\(tag)' is not a tag: use letters, digits, '-', '_' or '.'")
            }
            if !tags.contains(tag) { tags.append(tag) }
        }
        return tags
    }
}
