import BeaconConfiguration
import BeaconSite
import BeaconSiteReport
import Foundation

extension GatewayKey {
    /// The key of an entry's `key:` (hexadecimal) or `keyFile:` (a file holding it, so that the
    /// configuration itself can be readable by more people than the key); `nil` when it has
    /// neither. A relative `keyFile` is taken from the configuration file's directory.
    static func read(from entry: ConfigNode) throws(ConfigurationError) -> GatewayKey? {
        let expected = "32 to 128 hexadecimal digits (a 16- to 64-byte key; `openssl rand -hex 32` makes one)"
        if let node = entry["key"] {
            guard entry["keyFile"] == nil else { throw node.error("give key or keyFile, not both") }
            guard let key = GatewayKey(hex: try node.string()) else { throw node.error("a key must be \(expected)") }
            return key
        }
        guard let node = entry["keyFile"] else { return nil }
        let path = try node.filePath()
        guard let data = FileManager.default.contents(atPath: path) else {
            throw node.error("cannot read the key file \(path): it \(UnreadableFile.reason(path) ?? "could not be read")")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let key = GatewayKey(hex: text) else { throw node.error("the key file \(path) must hold \(expected)") }
        return key
    }
}
