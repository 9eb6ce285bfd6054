import BeaconCore
import BeaconSimulator
import FoundationEssentials
import Testing

@Suite("Simulation prefetcher")
struct SimulationPrefetcherTests {
    struct Stop: Error {}

    func lobby() throws -> Scenario { try Scenario.load(path: TestSupport.scenarioPath("lobby.yaml")) }

    /// Every packet the prefetcher lends, the number of batches, and the engine's statistics.
    func collect(
        _ scenario: Scenario, seed: UInt64, span: Duration, maxPackets: Int, depth: Int
    ) -> (packets: [(Timestamp, [UInt8])], batches: Int, statistics: SimulationStatistics) {
        var packets: [(Timestamp, [UInt8])] = []
        var batches = 0
        var statistics = SimulationStatistics()
        let engine = SimulationEngine(scenario: scenario, seed: seed)
        SimulationPrefetcher.run(
            engine: engine, from: scenario.start, until: scenario.end, span: span, maxPackets: maxPackets,
            depth: depth
        ) { prefetcher in
            while prefetcher.next({ batch, _, counts in
                batches += 1
                statistics = counts
                batch.forEachPacket { record, bytes in packets.append((record.timestamp, Array(bytes))) }
            }) {}
        }
        return (packets, batches, statistics)
    }

    @Test("the batches carry exactly the packets of the engine driven directly, in order", arguments: [2, 3, 8])
    func samePackets(depth: Int) throws {
        let scenario = try lobby()
        let direct = TestSupport.runAll(scenario, seed: 3)
        // Small batches, so that the ring wraps many times and both sides wait for each other.
        let ahead = collect(scenario, seed: 3, span: .milliseconds(50), maxPackets: 16, depth: depth)
        #expect(direct.packets.count > 300)
        #expect(ahead.batches > direct.packets.count / 16)
        #expect(ahead.packets.map(\.0) == direct.packets.map(\.0))
        #expect(ahead.packets.map(\.1) == direct.packets.map(\.1))
        #expect(ahead.statistics == direct.statistics)
    }

    @Test("a body that throws stops the producer, and the error reaches the caller")
    func throwingBody() throws {
        let scenario = try lobby()
        var taken = 0
        #expect(throws: Stop.self) {
            try SimulationPrefetcher.run(
                engine: SimulationEngine(scenario: scenario), from: scenario.start, until: scenario.end,
                span: .milliseconds(100), maxPackets: 64, depth: 2
            ) { prefetcher in
                while try prefetcher.next({ _, _, _ in
                    taken += 1
                    if taken == 3 { throw Stop() }
                }) {}
            }
        }
        #expect(taken == 3)
    }

    @Test("a body that stops taking early returns at once (the producer is told to stop and joined)")
    func earlyReturn() throws {
        let scenario = try lobby()
        let first = SimulationPrefetcher.run(
            engine: SimulationEngine(scenario: scenario), from: scenario.start, until: scenario.end,
            span: .milliseconds(100), maxPackets: 64, depth: 4
        ) { prefetcher -> Int in
            var count = 0
            _ = prefetcher.next { batch, _, _ in count = batch.count }
            return count
        }
        #expect(first > 0)
    }

    @Test("after the last batch, next returns false without calling the body")
    func afterTheEnd() throws {
        var scenario = try lobby()
        scenario.duration = .seconds(2)
        SimulationPrefetcher.run(
            engine: SimulationEngine(scenario: scenario), from: scenario.start, until: scenario.end,
            span: .seconds(1), maxPackets: 4096, depth: 2
        ) { prefetcher in
            var calls = 0
            while prefetcher.next({ _, _, _ in calls += 1 }) {}
            #expect(calls == 2)
            #expect(!prefetcher.next { _, _, _ in Issue.record("called after the end") })
        }
    }

    @Test("an unpaced Simulation delivers what the engine gives, through the prefetcher")
    func unpacedSimulation() async throws {
        let scenario = try lobby()
        let direct = TestSupport.runAll(scenario, seed: 9)
        var packets: [(Timestamp, [UInt8])] = []
        var last = SimulationStatistics()
        try await Simulation(scenario: scenario, seed: 9, speed: .max, maxBatchPackets: 32).run(
            deliver: { batch in batch.forEachPacket { record, bytes in packets.append((record.timestamp, Array(bytes))) } },
            progress: { _, statistics in last = statistics })
        #expect(packets.map(\.0) == direct.packets.map(\.0))
        #expect(packets.map(\.1) == direct.packets.map(\.1))
        #expect(last == direct.statistics)
    }
}
