import BeaconCore

/// A simulated gateway radio: an `AdvertisementSource` that delivers the HCI LE (Extended)
/// Advertising Report events a controller would, for a ``Scenario``, in virtual time.
///
/// ```swift
/// let scenario = try Scenario.load(path: "Simulator/Scenarios/lobby.yaml")
/// let simulation = Simulation(scenario: scenario, seed: 7)      // speed .max
/// try await simulation.run { batch in … }                     // batches of H4 events
/// ```
/// Deterministic: one scenario and seed always give the same bytes and timestamps. With
/// `speed: .factor(x)` each batch is held back until `clock` has advanced by (its virtual time
/// since the start) / x; with `.wallClock`, until `wallClock` reads its virtual time. Tests
/// inject a `ManualClock` (or use `.max`) and never sleep.
public struct Simulation: ResumableSource {
    /// The scenario.
    public let scenario: Scenario
    /// The seed of this run (the scenario's own unless overridden).
    public let seed: UInt64
    /// The gateway (index into ``Scenario/gateways``) whose receptions are delivered.
    public let gatewayIndex: Int
    /// Pacing.
    public let speed: SimulationSpeed
    /// The clock pacing uses at `.factor`.
    public let clock: any Clock<Duration>
    /// The clock whose time is the virtual time at `.wallClock`.
    public let wallClock: AnyTimestampClock
    /// Largest batch, in packets.
    public let maxBatchPackets: Int
    /// Largest span of virtual time in one batch.
    public let maxBatchSpan: Duration
    /// Packets before this virtual time are generated (the radio model's randomness stays that of
    /// a whole run) but neither delivered nor paced; `nil`: from the start.
    public var resumeTime: Timestamp?

    /// Creates a run of `scenario` at one gateway. At `.wallClock` a scenario under way on
    /// `wallClock` is joined where it is (what lies before now is generated, not delivered), and
    /// one that has ended is moved to start at the next whole second (``scenario`` is the moved
    /// one).
    public init(
        scenario: Scenario, seed: UInt64? = nil, gatewayIndex: Int = 0, speed: SimulationSpeed = .max,
        clock: any Clock<Duration> = ContinuousClock(), wallClock: AnyTimestampClock = .wall,
        maxBatchPackets: Int = 1024, maxBatchSpan: Duration = .milliseconds(100)
    ) {
        precondition(scenario.gateways.indices.contains(gatewayIndex), "no gateway at index \(gatewayIndex)")
        var scenario = scenario
        var joinedAt: Timestamp?
        if speed == .wallClock {
            let now = wallClock.now
            if now > scenario.start, now < scenario.end {
                // Under way: join it where it is (a gateway of a site restarted mid-scenario
                // hears what the others hear now).
                joinedAt = now
            } else if now > scenario.start {
                let second: Int64 = 1_000_000_000
                scenario.start = Timestamp(nanosecondsSinceEpoch: (now.nanosecondsSinceEpoch / second + 1) * second)
            }
        }
        self.scenario = scenario
        resumeTime = joinedAt
        self.wallClock = wallClock
        self.seed = seed ?? scenario.seed
        self.gatewayIndex = gatewayIndex
        self.speed = speed
        self.clock = clock
        self.maxBatchPackets = maxBatchPackets
        self.maxBatchSpan = maxBatchSpan
    }

    public var name: String { "sim:\(scenario.name)/\(scenario.gateways[gatewayIndex].name)" }

    /// This run from `time` on (see ``resumeTime``); on the wall clock, where the scenario's time
    /// is the clock's, the run itself.
    public func resuming(from time: Timestamp) -> any AdvertisementSource {
        guard speed != .wallClock else { return self }
        var resumed = self
        resumed.resumeTime = time
        return resumed
    }

    /// A fresh engine for this run (what ``run(deliver:)`` drives; useful for synchronous callers).
    public func makeEngine() -> SimulationEngine {
        SimulationEngine(scenario: scenario, gatewayIndex: gatewayIndex, seed: seed)
    }

    public func run(deliver: (borrowing PacketBatch) async throws -> Void) async throws {
        try await run(deliver: deliver, progress: { _, _ in })
    }

    /// Like ``run(deliver:)``, also calling `progress` after each batch with the virtual time
    /// reached and the statistics so far (for progress bars and summary tables).
    public func run(
        deliver: (borrowing PacketBatch) async throws -> Void,
        progress: (Timestamp, SimulationStatistics) -> Void
    ) async throws {
        try await run(clock: clock, deliver: deliver, progress: progress)
    }

    private func run<C: Clock<Duration>>(
        clock: C, deliver: (borrowing PacketBatch) async throws -> Void,
        progress: (Timestamp, SimulationStatistics) -> Void
    ) async throws {
        var engine = makeEngine()
        var batch = PacketBatch(byteCapacity: maxBatchPackets * 64, packetCapacity: maxBatchPackets + 4)
        var horizon = scenario.start
        var more = true
        // Resuming: generate up to the resume time as fast as possible, delivering nothing.
        let paceOrigin = max(scenario.start, min(resumeTime ?? scenario.start, scenario.end))
        while more && horizon < paceOrigin {
            try Task.checkCancellation()
            more = engine.fillNextSpan(
                &batch, horizon: &horizon, span: maxBatchSpan, end: paceOrigin, maxPackets: maxBatchPackets)
        }
        if speed == .max, more {
            // Unpaced: the engine fills the next batches on a thread of its own meanwhile (the
            // same batches as below, in the same order).
            try await SimulationPrefetcher.run(
                engine: engine, from: horizon, until: scenario.end, span: maxBatchSpan, maxPackets: maxBatchPackets
            ) { batches in
                while try await batches.next({ batch, virtualTime, statistics in
                    try Task.checkCancellation()
                    if !batch.isEmpty { try await deliver(batch) }
                    progress(virtualTime, statistics)
                }) {}
            }
            return
        }
        // The clock is read only when pacing: at `.max` a run never looks at any clock.
        var clockStart: C.Instant?
        if case .factor = speed { clockStart = clock.now }
        while more {
            try Task.checkCancellation()
            more = engine.fillNextSpan(
                &batch, horizon: &horizon, span: maxBatchSpan, end: scenario.end, maxPackets: maxBatchPackets)
            switch speed {
            case .factor(let factor):
                guard let clockStart else { break }
                let virtualElapsed = engine.virtualTime - paceOrigin
                let due = clockStart.advanced(by: virtualElapsed / factor)
                if due > clock.now { try await clock.sleep(until: due, tolerance: nil) }
            case .wallClock:
                let wait = engine.virtualTime - wallClock.now
                if wait > .zero { try await wallClock.sleep(for: wait) }
            case .max:
                break
            }
            if !batch.isEmpty { try await deliver(batch) }
            progress(engine.virtualTime, engine.statistics)
        }
    }
}
