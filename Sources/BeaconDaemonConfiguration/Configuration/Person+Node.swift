import BeaconConfiguration
import BeaconCore

extension Person {
    /// The keys of a `people:` entry.
    static let keys = ["name", "devices"]

    /// Reads `people: [{name: Ada, devices: [ada-phone, ada-watch, "Ada's badge"]}, …]`: each of a
    /// person's `devices` is an enrolled device's id, a beacon's identity (`ibeacon:…`) or a named
    /// beacon's name. A name given twice, or a device that is two people's, is an error.
    static func read(_ node: ConfigNode, beacons: BeaconDirectory) throws(ConfigurationError) -> [Person] {
        var people: [Person] = []
        for item in try node.sequence(of: "people ({name: …, devices: […]})") {
            try item.checkKeys(allowed: keys)
            let nameNode = try item.required("name")
            let name = try nameNode.string()
            guard !name.allSatisfy(\.isWhitespace) else { throw nameNode.error("a person's name must not be empty") }
            if people.contains(where: { $0.name == name }) { throw nameNode.error("two people are named '\(name)'") }
            var members: [BeaconID] = []
            let list = try item.required("devices")
            for entry in try list.sequence(of: "what they carry: enrolled device ids, beacon ids or beacon names") {
                let text = try entry.string()
                guard let id = beacons.identity(named: text) else {
                    throw entry.error(
                        "'\(text)' is neither an enrolled device (devices:), a beacon id, nor a named beacon (beacons:)")
                }
                if let other = people.first(where: { $0.members.contains(id) }) {
                    throw entry.error("\(id) is already \(other.name)'s; a device belongs to one person")
                }
                if !members.contains(id) { members.append(id) }
            }
            guard !members.isEmpty else { throw list.error("a person carries at least one device or beacon") }
            people.append(Person(name: name, members: members))
        }
        return people
    }
}
