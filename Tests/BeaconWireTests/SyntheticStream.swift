import Foundation
import Testing

/// The synthetic BlueZ streams in Fixtures/ (see Fixtures/PROVENANCE.md) and their oracle files.
enum SyntheticStream: String, CaseIterable, CustomStringConvertible {
    case legacy = "hci_2k_seed1"
    case extended = "hci_2k_seed1_ext"

    var description: String { rawValue }

    /// The H4 bytes.
    func bytes() throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: rawValue, withExtension: "raw", subdirectory: "Fixtures"))
        return [UInt8](try Data(contentsOf: url))
    }

    /// What the generator says a correct parser must find.
    func truth() throws -> Truth {
        let url = try #require(
            Bundle.module.url(
                forResource: rawValue + ".truth", withExtension: "json",
                subdirectory: "Fixtures"))
        return try JSONDecoder().decode(Truth.self, from: Data(contentsOf: url))
    }

    /// The fields of `*.truth.json` the tests check (named as the generator writes them).
    // swift-format-ignore: AlwaysUseLowerCamelCase
    struct Truth: Decodable {
        let reports: Int
        let ibeacon_reports: Int
        let bytes_raw: Int
        let sum_major: Int
        let sum_minor: Int
        let sum_power: Int
        let sum_rssi: Int
        let sum_uuid_hi32: Int
        let by_kind: [String: Int]
    }
}
