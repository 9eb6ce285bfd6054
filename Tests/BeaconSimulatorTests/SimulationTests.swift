import BeaconCore
import BeaconSimulator
import Testing

@Suite("Simulation source")
struct SimulationTests {
    @Test("run(deliver:) at speed max delivers the engine's packets in H4 batches")
    func runMax() async throws {
        let scenario = try Scenario.load(path: TestSupport.scenarioPath("lobby.yaml"))
        var timestamps: [Timestamp] = []
        var bytes: [[UInt8]] = []
        try await Simulation(scenario: scenario).run { batch in
            batch.forEachPacket { record, raw in
                #expect(record.linkType == .hciH4)
                timestamps.append(record.timestamp)
                bytes.append(Array(raw))
            }
        }
        let direct = TestSupport.runAll(scenario)
        #expect(timestamps == direct.packets.map(\.0))
        #expect(bytes == direct.packets.map(\.1))
    }

    @Test("speed 1 paces batches on the injected clock")
    func paced() async throws {
        let scenario = try Scenario.load(path: TestSupport.scenarioPath("lobby.yaml"))
        let clock = ManualClock(start: .epoch)
        let simulation = Simulation(scenario: scenario, speed: .factor(1), clock: clock)
        let (stream, continuation) = AsyncStream.makeStream(of: Timestamp.self)
        let task = Task {
            try await simulation.run { batch in
                continuation.yield(batch.records.last!.timestamp)
            }
            continuation.finish()
        }
        // Nothing is delivered before the clock moves; then each second of clock releases about
        // a second of virtual time.
        var iterator = stream.makeAsyncIterator()
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: .seconds(10))
        let first = try #require(await iterator.next())
        #expect(first <= scenario.start + .seconds(10))
        task.cancel()
        _ = await task.result
    }

    @Test("speed parses max and factors")
    func speedParsing() {
        #expect(SimulationSpeed("max") == .max)
        #expect(SimulationSpeed("2.5") == .factor(2.5))
        #expect(SimulationSpeed("0") == nil)
        #expect(SimulationSpeed("fast") == nil)
    }
}
