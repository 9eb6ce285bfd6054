import BeaconCore
import Foundation

/// The beacons and people a gateway announced to Home Assistant, remembered in a file (one a
/// line: a beacon's id, or `person:` and a person's name) so that a restart with a beacon no
/// longer named, or a person no longer in `people:`, removes their entities (an empty retained
/// discovery document each) instead of leaving them behind.
struct HomeAssistantLedger {
    let path: String

    /// The line prefix of a person.
    static let personPrefix = "person:"

    /// What the file holds (nothing when it does not exist or cannot be read).
    func read() -> (beacons: [BeaconID], people: [String]) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return ([], []) }
        var beacons: [BeaconID] = []
        var people: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix(Self.personPrefix) {
                people.append(String(line.dropFirst(Self.personPrefix.count)))
            } else if let id = BeaconID(line) {
                beacons.append(id)
            }
        }
        return (beacons, people)
    }

    /// Replaces what the file holds (written whole, then renamed into place).
    func write(beacons: [BeaconID], people: [String] = []) throws {
        let temporary = path + ".tmp"
        let lines = beacons.map { "\($0)\n" } + people.map { "\(Self.personPrefix)\($0)\n" }
        try Data(lines.joined().utf8).write(to: URL(fileURLWithPath: temporary))
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
    }
}
