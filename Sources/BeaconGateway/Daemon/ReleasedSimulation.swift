import BeaconCore
import BeaconSimulator
import Foundation
import Logging

/// A simulation on the wall clock that starts when it is released: when a file appears (the
/// source's `startFile:`), at the time the file holds (RFC 3339), or at the file's modification
/// time when it is empty. Until then the gateway runs — connected, ticking, ready — and hears
/// nothing.
///
/// Gateways of a site in separate processes read the same file and so start the same walk
/// together, once whoever writes it has seen every one of them ready (`ready:` in the log, or
/// `READY=1` to systemd) — not at a moment guessed in advance that a slow start would miss.
struct ReleasedSimulation: AdvertisementSource {
    let scenario: Scenario
    let gatewayIndex: Int
    /// The file whose appearance starts the scenario.
    let startFile: String
    let clock: AnyTimestampClock
    let logger: Logger
    /// How often the file is looked for.
    var poll: Duration = .milliseconds(50)

    var name: String { "sim:\(scenario.name)/\(scenario.gateways[gatewayIndex].name)" }

    func run(deliver: (borrowing PacketBatch) async throws -> Void) async throws {
        logger.notice("waiting for \(startFile) to start the scenario (startFile:)")
        var start: Timestamp?
        while start == nil {
            start = try Self.startTime(in: startFile)
            if start == nil { try await clock.sleep(for: poll) }
        }
        var released = scenario
        released.start = start!
        let simulation = Simulation(scenario: released, gatewayIndex: gatewayIndex, speed: .wallClock, wallClock: clock)
        let (from, to) = (simulation.scenario.start.rfc3339String, simulation.scenario.end.rfc3339String)
        logger.notice("\(startFile) released the scenario: from \(from) to \(to) on the wall clock")
        if let joined = simulation.resumeTime {
            // Seen after its start (this gateway was busy, or started after the release): the
            // walk is joined where it is, and what the other gateways heard before is not heard here.
            let lateMilliseconds = (joined.nanosecondsSinceEpoch - released.start.nanosecondsSinceEpoch) / 1_000_000
            logger.warning(
                "\(startFile) was seen \(Double(lateMilliseconds) / 1000) s after the start it holds: joined the scenario under way (nothing before \(joined.rfc3339String) is delivered); write a start further ahead if every gateway must hear it whole"
            )
        }
        try await simulation.run(deliver: deliver)
    }

    /// The start `path` gives: `nil` while it does not exist.
    /// - Throws: ``GatewayError/source(_:)`` for a file that holds something other than a time.
    static func startTime(in path: String) throws(GatewayError) -> Timestamp? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty {
            guard let modified = try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date else {
                return nil
            }
            return Timestamp(secondsSinceEpoch: modified.timeIntervalSince1970)
        }
        guard let time = Timestamp(rfc3339: text) else {
            throw .source(
                "startFile \(path) holds '\(text.prefix(40))', not a time: write one in RFC 3339 (2025-01-01T09:00:00Z), or leave the file empty to start when it appears"
            )
        }
        return time
    }
}
