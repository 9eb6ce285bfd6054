import Foundation
import Testing

/// The fixtures of `Fixtures/foreign` (see its PROVENANCE.md).
enum ForeignFixtures {
    static func url(_ name: String) throws -> URL {
        try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/foreign"), "\(name)")
    }

    /// The lines of a fixture.
    static func lines(_ name: String) throws -> [String] {
        try String(contentsOf: url(name), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// A `topic payload` line (`mosquitto_sub -v`) of a fixture, 1-based.
    static func message(_ name: String, line: Int) throws -> (topic: String, payload: [UInt8]) {
        let text = try lines(name)[line - 1]
        let space = try #require(text.firstIndex(of: " "))
        return (String(text[..<space]), Array(text[text.index(after: space)...].utf8))
    }

    /// The messages of the companion's `mosquitto_sub -F %j` recording: topic, payload bytes (the
    /// `payload` object re-serialised) and receive time.
    static func companionRecording() throws -> [(topic: String, payload: [UInt8], time: String)] {
        try lines("espresense-companion-stationary.jsonp").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let payload = try JSONSerialization.data(withJSONObject: try #require(object["payload"]))
            return (try #require(object["topic"] as? String), Array(payload), try #require(object["tst"] as? String))
        }
    }
}
