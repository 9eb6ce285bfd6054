import BeaconCore
import BeaconSimulator
import BeaconTestSupport
import Synchronization
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
        try #require(await eventually { clock.sleeperCount > 0 }, "the task under test never reached its wait")
        clock.advance(by: .seconds(10))
        let first = try #require(await iterator.next())
        #expect(first <= scenario.start + .seconds(10))
        task.cancel()
        _ = await task.result
    }

    @Test("on the wall clock a future scenario waits for its start, then each batch is delivered once the clock reaches it")
    func wallClock() async throws {
        let scenario = try Scenario.load(path: TestSupport.scenarioPath("lobby.yaml"))
        let clock = ManualClock(start: scenario.start - .seconds(30))
        let simulation = Simulation(scenario: scenario, speed: .wallClock, wallClock: AnyTimestampClock(clock))
        #expect(simulation.scenario.start == scenario.start) // in the future: kept
        let delivered = Mutex<[Timestamp]>([])
        let task = Task {
            try await simulation.run { batch in
                let last = batch.records.last!.timestamp
                delivered.withLock { $0.append(last) }
            }
        }
        try #require(await eventually { clock.sleeperCount > 0 }, "the task under test never reached its wait")
        // 29 s later the scenario has still not started: nothing is delivered.
        clock.advance(by: .seconds(29))
        for _ in 0..<1000 { await Task.yield() }
        #expect(delivered.withLock { $0.isEmpty })
        // 1 s past the start: the first second's batches come, none from later.
        clock.advance(by: .seconds(2))
        try #require(
            await eventually { !delivered.withLock({ $0.isEmpty }) && clock.sleeperCount > 0 },
            "the first batch was never delivered")
        let times = delivered.withLock { $0 }
        #expect(times.allSatisfy { $0 >= scenario.start && $0 <= clock.now })
        task.cancel()
        _ = await task.result
    }

    @Test("on the wall clock a scenario whose start has passed starts at the next whole second")
    func wallClockLateStart() throws {
        let scenario = try Scenario.load(path: TestSupport.scenarioPath("lobby.yaml"))
        let now = scenario.start + .seconds(3600) + .milliseconds(250)
        let simulation = Simulation(
            scenario: scenario, speed: .wallClock, wallClock: AnyTimestampClock(ManualClock(start: now)))
        #expect(simulation.scenario.start == scenario.start + .seconds(3601))
        #expect(simulation.scenario.duration == scenario.duration)
    }

    @Test("speed parses max, wall and factors")
    func speedParsing() {
        #expect(SimulationSpeed("wall") == .wallClock)
        #expect(SimulationSpeed("max") == .max)
        #expect(SimulationSpeed("2.5") == .factor(2.5))
        #expect(SimulationSpeed("0") == nil)
        #expect(SimulationSpeed("fast") == nil)
    }
}

@Suite("Simulation statistics")
struct SimulationStatisticsTests {
    @Test("counters add up and print as a table")
    func summary() {
        var a = SimulationStatistics()
        a.advertisements = 10
        a.reports = 7
        a.lostToCollisions = 2
        var b = SimulationStatistics()
        b.advertisements = 5
        b.reports = 4
        let sum = a + b
        #expect(sum.advertisements == 15 && sum.reports == 11 && sum.lostToCollisions == 2)
        #expect(sum.description.hasPrefix("advertisements       15\nout of range         0\n"))
        #expect(sum.description.hasSuffix("reports              11"))
    }
}
