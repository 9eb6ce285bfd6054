import BeaconConfiguration
import BeaconCore
import BeaconCrypto
import BeaconDevices

extension EnrolledDevice {
    /// The keys of a `devices:` entry.
    static let keys = ["id", "name", "irk", "order", "measuredPower", "corroborate", "tags"]

    /// Reads `devices: [{id: ada-phone, irk: keys/ada-phone.irk, name: "Ada's phone", tags: [ada]}, …]`,
    /// returning the devices and the named beacons they add to `beacons:` (name defaults to the id).
    ///
    /// `irk:` is a file (relative to the configuration's directory) that only its owner may read
    /// (mode 0600 or 0400): it holds the key as 32 hex digits (either byte order), base64, or is
    /// a BlueZ `info` file. `order: msb-first|lsb-first` settles a form that leaves the byte
    /// order open (`beacond irk check` says which one resolves). The key's bytes never appear in
    /// an error.
    ///
    /// In a simulation, `irk: scenario` takes the key of the scenario's phone named as the id
    /// (`scenarioPhoneKeys`): a simulated phone's key is no secret.
    static func read(
        _ node: ConfigNode, beacons: BeaconDirectory, scenarioPhoneKeys: [String: [UInt8]] = [:]
    ) throws(ConfigurationError) -> (devices: [EnrolledDevice], named: [NamedBeacon]) {
        var devices: [EnrolledDevice] = []
        var named: [NamedBeacon] = []
        for item in try node.sequence(of: "enrolled devices ({id: …, irk: FILE})") {
            try item.checkKeys(allowed: keys)
            let idNode = try item.required("id")
            let idText = try idNode.string()
            guard let id = BeaconID.device(named: idText) else {
                throw idNode.error(
                    "'\(idText)' is not a device id: use 1 to \(BeaconID.deviceNameMaximumLength) letters, digits, '-', '_' or '.' (ada-phone)"
                )
            }
            if devices.contains(where: { $0.id == id }) { throw idNode.error("device '\(idText)' is enrolled twice") }
            let name = try item["name"]?.string() ?? idText
            if let other = beacons.beacons.first(where: { $0.name == name }) ?? named.first(where: { $0.name == name }) {
                throw (item["name"] ?? idNode).error(
                    "'\(name)' already names \(other.id); names must be unique (Home Assistant shows them)")
            }
            let irkNode = try item.required("irk")
            var candidates: [IdentityResolvingKeyText.Candidate]
            if irkNode.scalarText == "scenario" {
                guard let bytes = scenarioPhoneKeys[idText], let key = IdentityResolvingKey(bytes: bytes) else {
                    throw irkNode.error(
                        scenarioPhoneKeys.isEmpty
                            ? "irk: scenario takes the key of a simulated scenario's phone; only beacond simulate has one: give a key file"
                            : "the scenario has no phone '\(idText)' with an irk; its phones: \(scenarioPhoneKeys.keys.sorted().joined(separator: ", "))"
                    )
                }
                candidates = [IdentityResolvingKeyText.Candidate(order: .mostSignificantFirst, key: key)]
            } else {
                candidates = try readKey(irkNode).candidates
            }
            if let orderNode = item["order"] {
                let text = try orderNode.string()
                guard let order = IdentityResolvingKeyOrder(rawValue: text) else {
                    throw orderNode.error(
                        "order is msb-first (Home Assistant, ESPresense) or lsb-first (BlueZ, Theengs, the keychain)")
                }
                candidates = candidates.filter { $0.order == order }
                guard !candidates.isEmpty else {
                    throw orderNode.error("a BlueZ info file's key is lsb-first; leave order out")
                }
            }
            let power = try item["measuredPower"].map { n throws(ConfigurationError) in Int8(try n.integer(in: -100...20)) }
            let corroborates = try item["corroborate"]?.bool() ?? true
            let tags = try NamedBeacon.tags(item["tags"])
            devices.append(
                EnrolledDevice(id: id, candidates: candidates, measuredPower: power, corroborates: corroborates))
            named.append(NamedBeacon(id: id, name: name, tags: tags))
        }
        return (devices, named)
    }

    /// The key in the file `node` names: readable, owner-only, in one of the written forms.
    static func readKey(_ node: ConfigNode) throws(ConfigurationError) -> IdentityResolvingKeyText {
        let path = try node.filePath()
        do throws(IdentityResolvingKeyFileError) {
            return try IdentityResolvingKeyFile.read(path)
        } catch {
            throw node.error("\(error)")
        }
    }
}
