import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import BeaconSimulator
import BeaconStrategies
import BeaconStrategyKit
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Issue 6's day: the bundled stress scenario — 1,000 beacons at 1 Hz for 24 hours around one
/// gateway, radio model on (shadowing, loss, collisions) — through the full pipeline: simulated
/// HCI bytes → parser → ranging → strategies (`time` and `exit` on every tag) → alert engine.
/// Target: ≤ 20 s on this machine (issue 38). `BENCH_DAY_DURATION=1h` shortens it for a quick
/// look. The simulator runs on a thread of its own (``SimulationPrefetcher``), as in `beacond
/// simulate`; the line gives the process's CPU time beside the wall time. `BENCH_DAY_INLINE=1`
/// runs it on the pipeline's thread instead, `BENCH_DAY_SPAN` sets the virtual time per batch.
enum DayBenchmarks {
    static func run() throws -> [BenchResult] {
        let root = repositoryRoot()
        var scenario = try Scenario.load(path: root + "/Simulator/Scenarios/stress.yaml")
        if let text = getenv("BENCH_DAY_DURATION").map({ String(cString: $0) }), let duration = Duration(parsing: text) {
            scenario.duration = duration
        }
        let pipeline = try AlertPipeline(alerts: stressAlerts, registry: .builtIn())
        var engine = Simulation(scenario: scenario).makeEngine()
        // A quarter of a ranging cycle of radio per batch (as before); `BENCH_DAY_SPAN=1s` gives one.
        let span = getenv("BENCH_DAY_SPAN").flatMap { Duration(parsing: String(cString: $0)) } ?? .milliseconds(250)
        let inline = getenv("BENCH_DAY_INLINE").map { String(cString: $0) == "1" } ?? false
        var events = 0
        var stats = SimulationStatistics()
        let allocationsBefore = Bench.allocations
        let cpuBefore = Bench.processCPUSeconds()
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            if inline {
                // `BENCH_DAY_INLINE=1`: the simulator on the pipeline's thread, one after the other.
                var batch = PacketBatch(byteCapacity: 4096 * 64, packetCapacity: 4096 + 4)
                var horizon = scenario.start
                var more = true
                while more {
                    more = engine.fillNextSpan(&batch, horizon: &horizon, span: span, end: scenario.end, maxPackets: 4096)
                    try pipeline.ingest(batch) { _ in events += 1 }
                }
                stats = engine.statistics
            } else {
                // As `beacond simulate` runs it: the simulator fills the next batches on a thread
                // of its own while the pipeline works through the current one.
                try SimulationPrefetcher.run(
                    engine: engine, from: scenario.start, until: scenario.end, span: span, maxPackets: 4096
                ) { batches in
                    while try batches.next({ batch, _, statistics in
                        stats = statistics
                        try pipeline.ingest(batch) { _ in events += 1 }
                    }) {}
                }
            }
            try pipeline.advance(to: scenario.end) { _ in events += 1 }
        }
        let cpu = Bench.processCPUSeconds() - cpuBefore
        let allocations = Bench.allocations - allocationsBefore
        var result = BenchResult(
            name: "day: \(scenario.duration.humanReadable), \(scenario.beacons.count) beacon specs, full pipeline",
            items: stats.advertisements, unit: "advertisements",
            bestSeconds: elapsed.seconds,
            allocationsPerItem: Double(allocations) / Double(max(stats.advertisements, 1)))
        result.extra = [
            ("wall", "\(Bench.format(elapsed.seconds, 2)) s"),
            ("cpu", "\(Bench.format(cpu, 2)) s"),
            ("simulator", inline ? "inline" : "own thread"),
            ("batch span", span.humanReadable),
            ("reports", "\(stats.reports)"),
            ("cycles", "\(pipeline.statistics.cycles)"),
            ("alert events", "\(events)"),
            ("tracked at end", "\(pipeline.trackedBeacons)"),
        ]
        return [result]
    }

    private static func repositoryRoot() -> String {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4) // Sources/beacond-bench/DayBenchmarks.swift, Benchmarks
        return parts.joined(separator: "/")
    }
}

/// The alerts of `Simulator/Scenarios/stress.alerts.yaml` (which `beacond simulate stress.yaml`
/// reads from beside the scenario), as pipeline values: a dwell alert and an exit alert on
/// every tag, so that the day exercises strategies and the engine, not only parsing and ranging.
private let stressAlerts: [PipelineAlert] = {
    let tags = BeaconMatch(.uuid(UUID(uuidString: "3D4F0E28-7C1B-4A55-8E2A-9B6C1D0F2E4A")!, major: nil, minor: nil))
    return [
        PipelineAlert(
            id: "tag-dwell", match: tags, strategy: "time",
            parameters: ["dwell": "10m", "gap": "30s", "maxTimeBeforeReset": "10m"],
            rule: AlertRule(id: "tag-dwell", content: AlertContent(title: "Tag settled"))),
        PipelineAlert(
            id: "tag-gone", match: tags, strategy: "exit", parameters: ["away": "30s"],
            rule: AlertRule(id: "tag-gone", content: AlertContent(title: "Tag gone"))),
    ]
}()
