import BeaconCore
import BeaconCrypto

/// Pseudonymous identities (`pseudonyms: {keyFile: FILE}`): each enrolled device, each person and
/// the name of each beacon a person carries are replaced, everywhere the daemon writes or sends
/// them (events, presence lines, the state file, `/api/site`, MQTT topics, Home Assistant, logs),
/// by `p-` and 16 hex digits of a keyed hash (HMAC-SHA-256) of what the configuration wrote.
///
/// The hash is keyed by the site's secret, so a pseudonym is the same on every gateway and hub
/// holding the same key (stable per site) and cannot be computed back, nor matched with another
/// site's, without it. The names the configuration wrote stay usable in it (`match:`, `people:`)
/// and in `beacond forget` as aliases, which no output shows.
public struct Pseudonyms: Sendable {
    private let key: [UInt8]
    private static let digits = Array("0123456789abcdef")

    /// Pseudonyms keyed by `key` (the site's secret, 16 to 64 bytes).
    public init(key: [UInt8]) {
        self.key = key
    }

    /// `p-` and the first 8 bytes, as hex, of the HMAC of `kind:text`.
    public func pseudonym(of text: String, kind: String) -> String {
        let code = HMACSHA256.authenticationCode(for: Array("\(kind):\(text)".utf8), key: key)
        var text = "p-"
        for byte in code.prefix(8) {
            text.append(Self.digits[Int(byte >> 4)])
            text.append(Self.digits[Int(byte & 0x0F)])
        }
        return text
    }

    /// The devices, the named beacons and the people, under pseudonyms: each device's identity
    /// is `device:p-…` (its key and power unchanged); each named device and each named beacon a
    /// person carries is named by its pseudonym; each person is. Tags are kept: they are
    /// categories (`staff`), not names. The returned directory takes the written names as aliases.
    public func apply(
        devices: [EnrolledDevice], beacons: BeaconDirectory, people: [Person]
    ) -> (devices: [EnrolledDevice], beacons: BeaconDirectory, people: [Person]) {
        var renamed: [BeaconID: BeaconID] = [:]
        for device in devices {
            guard let name = device.id.deviceName,
                let id = BeaconID.device(named: pseudonym(of: name, kind: "device"))
            else { continue }
            renamed[device.id] = id
        }
        let carried = Set(people.flatMap(\.members))
        var aliases: [String: BeaconID] = [:]
        var named: [NamedBeacon] = []
        for beacon in beacons.beacons {
            let id = renamed[beacon.id] ?? beacon.id
            guard renamed[beacon.id] != nil || carried.contains(beacon.id) else {
                named.append(beacon)
                continue
            }
            aliases[beacon.name] = id
            if let written = beacon.id.deviceName {
                aliases[written] = id
                aliases["\(beacon.id)"] = id
            }
            let name = id.deviceName ?? pseudonym(of: "\(beacon.id)", kind: "beacon")
            named.append(NamedBeacon(id: id, name: name, tags: beacon.tags))
        }
        let enrolled = devices.map { device in
            EnrolledDevice(
                id: renamed[device.id] ?? device.id, candidates: device.candidates, measuredPower: device.measuredPower,
                corroborates: device.corroborates)
        }
        let persons = people.map { person in
            Person(
                name: pseudonym(of: person.name, kind: "person"), members: person.members.map { renamed[$0] ?? $0 },
                aliases: [person.name] + person.aliases)
        }
        return (enrolled, BeaconDirectory(named, aliases: aliases), persons)
    }
}
