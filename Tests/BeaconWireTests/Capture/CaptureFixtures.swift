import Foundation

/// Paths and bytes of the capture fixtures (`Fixtures/Captures`, see its PROVENANCE.md).
enum CaptureFixtures {
    /// The four real captures that have a tshark oracle next to them.
    static let oracleCaptures = [
        "csacca_horizon74_btsnoop_hci.btsnoop",
        "wangdalian_btsnooper_btsnoop_hci.btsnoop",
        "bostonmesh_hackrf_take2_ble_all_adv.pcap",
        "mitll_anechoic_nrf52_0deg.pcapng",
    ]

    /// The absolute path of fixture `name`.
    static func path(_ name: String) -> String {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures/Captures/\(name)").path
    }

    /// The bytes of fixture `name`.
    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// A fresh path in the temporary directory for a test to write to.
    static func temporaryPath(_ name: String) -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-capture-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try? FileManager.default.removeItem(atPath: path)
        return path
    }
}

/// One row of a `*.tshark.csv` oracle (columns documented in the shared PROVENANCE.md).
struct OracleRow {
    let fields: [String: String]

    subscript(_ column: String) -> String { fields[column] ?? "" }

    /// The rows of oracle file `name` (the oracle escapes `,` inside fields, so a plain split is exact).
    static func load(_ name: String) throws -> [OracleRow] {
        let text = String(decoding: try CaptureFixtures.bytes(name), as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        let header = lines.removeFirst().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.map { line in
            let values = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return OracleRow(fields: Dictionary(uniqueKeysWithValues: zip(header, values)))
        }
    }

    /// Whether `hex` (our decoded advertising data, walked as tshark walks AD structures) agrees
    /// with the oracle's `ad_hex`, where `??` stands for bytes tshark could not delimit.
    func adHexMatches(_ delimited: String) -> Bool {
        let pattern = self["ad_hex"]
        let parts = pattern.components(separatedBy: "??")
        guard parts.count > 1 else { return delimited == pattern }
        var rest = Substring(delimited)
        guard rest.hasPrefix(parts[0]) else { return false }
        rest = rest.dropFirst(parts[0].count)
        for part in parts.dropFirst() where !part.isEmpty {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return pattern.hasSuffix("??") || rest.isEmpty
    }
}

/// Advertising data as tshark 4.0 delimits it (observed on the oracle files): AD structures up to
/// a zero length byte; a structure whose length runs past the end keeps its remaining bytes when
/// at least its type byte is there, and is dropped when only its length byte is. Written from the
/// Core spec's AD format (Vol 3 Part C §11), apart from the code under test.
func tsharkDelimitedHex(_ data: [UInt8]) -> String {
    var end = 0
    while end < data.count {
        let length = Int(data[end])
        guard length > 0, end + 1 < data.count else { break }
        end = min(data.count, end + 1 + length)
    }
    return data[0..<end].map { String(format: "%02x", $0) }.joined()
}
