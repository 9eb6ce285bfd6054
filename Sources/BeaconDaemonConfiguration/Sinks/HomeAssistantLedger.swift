import BeaconCore
import Foundation

/// The beacons a gateway announced to Home Assistant, remembered in a file (one id a line) so
/// that a restart with a beacon no longer named removes its entities (an empty retained
/// discovery document each) instead of leaving them behind.
struct HomeAssistantLedger {
    let path: String

    /// The ids the file holds (none when it does not exist or cannot be read).
    func read() -> [BeaconID] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(whereSeparator: \.isNewline).compactMap { BeaconID($0) }
    }

    /// Replaces the file's ids with `ids` (written whole, then renamed into place).
    func write(_ ids: [BeaconID]) throws {
        let temporary = path + ".tmp"
        try Data(ids.map { "\($0)\n" }.joined().utf8).write(to: URL(fileURLWithPath: temporary))
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
    }
}
