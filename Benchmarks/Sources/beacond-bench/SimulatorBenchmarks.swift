import BeaconCore
import BeaconSimulator

#if canImport(Glibc)
import Glibc
#endif

/// The simulator alone: HCI advertising reports generated per second for the stress scenario
/// (1,000 beacons at 1 Hz, shadowing, packet loss, collisions), and allocations per report.
enum SimulatorBenchmarks {
    static let repositoryRoot: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4) // Benchmarks/Sources/beacond-bench/SimulatorBenchmarks.swift
        return parts.joined(separator: "/")
    }()

    static func run() throws -> [BenchResult] {
        var scenario = try Scenario.load(path: repositoryRoot + "/Simulator/Scenarios/stress.yaml")
        scenario.duration = .seconds(600) // 10 virtual minutes per run: ~600 k advertisements
        var withoutCollisions = scenario
        withoutCollisions.radio.collisions = false
        return [
            try measure(scenario, "simulator: stress scenario (1,000 beacons, radio model on)", printing: true),
            try measure(withoutCollisions, "simulator: stress scenario without collisions", printing: false),
        ]
    }

    static func measure(_ scenario: Scenario, _ name: String, printing: Bool) throws -> BenchResult {
        var batch = PacketBatch(byteCapacity: 1024 * 64, packetCapacity: 1100)
        func day() -> SimulationStatistics {
            var engine = SimulationEngine(scenario: scenario)
            var bytes = 0
            while engine.fill(&batch, until: scenario.end, maxPackets: 1024) || !batch.isEmpty {
                bytes &+= batch.bytes.count
                batch.removeAll()
            }
            blackHole(bytes)
            return engine.statistics
        }
        let statistics = day()
        if printing { print("stress scenario, first 10 virtual minutes:\n\(statistics)") }
        var result = Bench.measure(name, items: statistics.reports, unit: "reports") { _ = day() }
        // Process CPU time of one more run: meaningful even when other work shares the cores.
        let cpuBefore = Bench.processCPUSeconds()
        _ = day()
        let cpuSeconds = Bench.processCPUSeconds() - cpuBefore
        let advertisementsPerSecond = Double(statistics.advertisements) / result.bestSeconds
        result.extra = [
            ("advertisements/s", "\(Bench.format(advertisementsPerSecond / 1e6, 2)) M"),
            ("reports per advertisement", Bench.format(Double(statistics.reports) / Double(statistics.advertisements), 3)),
            ("24 h day projected", "\(Bench.format(86_400 / 600 * result.bestSeconds, 1)) s"),
            ("CPU ns/advertisement", Bench.format(cpuSeconds * 1e9 / Double(statistics.advertisements), 1)),
            ("CPU M reports/s", Bench.format(Double(statistics.reports) / cpuSeconds / 1e6, 2)),
        ]
        return result
    }
}
