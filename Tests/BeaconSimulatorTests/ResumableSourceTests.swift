import BeaconCore
import BeaconSimulator
import BeaconTestSupport
import Foundation
import Testing

/// A simulation or a replay resumed at a time delivers what a whole run delivers from that time
/// on, and nothing before it; a paced one does not wait for the skipped part.
@Suite("Resuming a simulation or a replay")
struct ResumableSourceTests {
    static func packets(of source: any AdvertisementSource) async throws -> [(Timestamp, [UInt8])] {
        var packets: [(Timestamp, [UInt8])] = []
        try await source.run { batch in
            batch.forEachPacket { record, raw in packets.append((record.timestamp, Array(raw))) }
        }
        return packets
    }

    @Test("a resumed simulation delivers the whole run's packets from the resume time on, byte for byte")
    func simulationSuffix() async throws {
        let scenario = try Scenario.load(path: TestSupport.scenarioPath("lobby.yaml"))
        let whole = try await Self.packets(of: Simulation(scenario: scenario))
        let resume = scenario.start + .seconds(61) + .milliseconds(300)
        let resumed = try await Self.packets(of: Simulation(scenario: scenario).resuming(from: resume))
        let expected = whole.filter { $0.0 >= resume }
        try #require(expected.count > 100 && expected.count < whole.count - 100)
        #expect(resumed.map(\.0) == expected.map(\.0))
        #expect(resumed.map(\.1) == expected.map(\.1))
    }

    @Test("a paced simulation resumed late in its scenario delivers after a second of clock, not after the skipped time")
    func pacedSimulationDoesNotWaitForTheSkippedPart() async throws {
        let scenario = try Scenario.load(path: TestSupport.scenarioPath("lobby.yaml"))
        let clock = ManualClock(start: .epoch)
        let resume = scenario.start + .seconds(100)
        let source = Simulation(scenario: scenario, speed: .factor(1), clock: clock).resuming(from: resume)
        let (stream, continuation) = AsyncStream.makeStream(of: Timestamp.self)
        let task = Task {
            try await source.run { batch in continuation.yield(batch.records.first!.timestamp) }
            continuation.finish()
        }
        var iterator = stream.makeAsyncIterator()
        try #require(await eventually { clock.sleeperCount > 0 }, "the task under test never reached its wait")
        // One second of clock releases the first second after the resume time; unresumed, it
        // would release the scenario's first second.
        clock.advance(by: .seconds(1))
        let first = try #require(await iterator.next())
        #expect(first >= resume)
        #expect(first < resume + .seconds(1))
        task.cancel()
        _ = await task.result
    }

    @Test("a resumed replay skips the records before the resume time and counts them")
    func replaySkips() async throws {
        let path = try CaptureReplayPacingTests.writeCapture(seconds: [0, 1, 2, 3, 4])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let start = try #require(Timestamp(rfc3339: "2025-01-01T09:00:00Z"))
        let source = try CaptureReplaySource(path: path)
        let resumed = try #require(source.resuming(from: start + .seconds(2)) as? CaptureReplaySource)
        let times = try await Self.packets(of: resumed).map { ($0.0 - start).secondsValue }
        #expect(times == [2, 3, 4])
        #expect(resumed.statistics.recordsSkipped == 2)
        #expect(resumed.statistics.recordsDelivered == 3)
        #expect(try await Self.packets(of: source).count == 5, "the original still replays everything")
    }
}
