import BeaconCore
import BeaconGateway
import BeaconSimulator
import BeaconStrategies
import BeaconStrategyKit

#if canImport(Glibc)
import BeaconPipeline
import Glibc
#endif

/// Issue 6's day: the bundled stress scenario — 1,000 beacons at 1 Hz for 24 hours around one
/// gateway, radio model on (shadowing, loss, collisions) — through the full pipeline: simulated
/// HCI bytes → parser → ranging → strategies (`time` and `exit` on every tag) → alert engine.
/// Target: ≤ 60 s on this machine. `BENCH_DAY_DURATION=1h` shortens it for a quick look.
enum DayBenchmarks {
    static func run() throws -> [BenchResult] {
        let root = repositoryRoot()
        var scenario = try Scenario.load(path: root + "/Simulator/Scenarios/stress.yaml")
        if let text = getenv("BENCH_DAY_DURATION").map({ String(cString: $0) }), let duration = Duration(parsing: text) {
            scenario.duration = duration
        }
        let configuration = try GatewayConfiguration.load(path: root + "/Simulator/Scenarios/stress.alerts.yaml")
        let pipeline = try AlertPipeline(configuration: configuration, registry: .builtIn())
        var engine = Simulation(scenario: scenario).makeEngine()
        var batch = PacketBatch(byteCapacity: 4096 * 64, packetCapacity: 4096 + 4)
        var events = 0
        var horizon = scenario.start
        let allocationsBefore = Bench.allocations
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            var more = true
            while more {
                horizon = min(horizon + .milliseconds(250), scenario.end)
                batch.removeAll()
                more = engine.fill(&batch, until: horizon, maxPackets: 4096)
                if batch.count >= 4096 { horizon = engine.virtualTime }
                try pipeline.ingest(batch) { _ in events += 1 }
            }
            try pipeline.advance(to: scenario.end) { _ in events += 1 }
        }
        let allocations = Bench.allocations - allocationsBefore
        let stats = engine.statistics
        var result = BenchResult(
            name: "day: \(scenario.duration.humanReadable), \(scenario.beacons.count) beacon specs, full pipeline",
            items: stats.advertisements, unit: "advertisements",
            bestSeconds: elapsed.seconds,
            allocationsPerItem: Double(allocations) / Double(max(stats.advertisements, 1)))
        result.extra = [
            ("wall", "\(Bench.format(elapsed.seconds, 2)) s"),
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
