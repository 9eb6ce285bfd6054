import CMallocCounter

#if canImport(Glibc)
import Glibc
#endif

/// One measured figure of a benchmark run.
struct BenchResult {
    let name: String
    /// Items processed per run (reports, advertisements, beacon-cycles …).
    let items: Int
    let unit: String
    let bestSeconds: Double
    let allocationsPerItem: Double
    /// Extra figures a benchmark wants to print (e.g. bytes per tracked beacon).
    var extra: [(String, String)] = []

    var itemsPerSecond: Double { Double(items) / bestSeconds }
    var nanosecondsPerItem: Double { bestSeconds * 1e9 / Double(items) }
}

/// A tiny benchmark harness: runs `body` a few times, keeps the best wall time, and counts heap
/// allocations made during the measured runs.
enum Bench {
    /// Allocations made by this process so far.
    static var allocations: Int { beacond_bench_allocation_count() }

    /// CPU time this process has used so far, every thread together (seconds).
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Measures `body`, which processes `items` items per call.
    static func measure(
        _ name: String, items: Int, unit: String, repetitions: Int = 5,
        _ body: () throws -> Void
    ) rethrows -> BenchResult {
        try body() // warm-up: caches, lazy initialisation, capacity growth
        var best = Double.infinity
        var allocationsSeen = 0
        let clock = ContinuousClock()
        for _ in 0..<repetitions {
            let before = allocations
            let elapsed = try clock.measure { try body() }
            allocationsSeen += allocations - before
            best = min(best, elapsed.seconds)
        }
        return BenchResult(
            name: name, items: items, unit: unit, bestSeconds: best,
            allocationsPerItem: Double(allocationsSeen) / Double(items * repetitions))
    }

    static func report(_ result: BenchResult) {
        var line =
            "\(result.name): \(format(result.itemsPerSecond / 1e6, 2)) M \(result.unit)/s, "
            + "\(format(result.nanosecondsPerItem, 1)) ns/\(singular(result.unit)), "
            + "\(format(result.allocationsPerItem, 4)) allocations/\(singular(result.unit))"
        for (key, value) in result.extra { line += ", \(key) \(value)" }
        print(line)
    }

    static func format(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return "\(rounded)"
    }

    private static func singular(_ unit: String) -> String {
        unit.hasSuffix("sses") ? String(unit.dropLast(2)) : unit.hasSuffix("s") ? String(unit.dropLast()) : unit
    }
}

extension Duration {
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}

/// Keeps a value alive so the optimiser cannot delete the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Returns its argument through a call the optimiser cannot see into (defeats constant folding).
@inline(never)
func opaque<T>(_ value: T) -> T { value }
