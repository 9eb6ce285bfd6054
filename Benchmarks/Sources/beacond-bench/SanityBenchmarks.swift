/// Checks the harness itself: a loop that allocates once per item must report about one
/// allocation per item, and one that does not allocate must report zero.
enum SanityBenchmarks {
    static func run() -> [BenchResult] {
        let n = 100_000
        var sink = 0
        let allocating = Bench.measure("harness: one heap string per item", items: n, unit: "items") {
            for i in 0..<n {
                let text = String(repeating: "x", count: opaque(32)) // too long for inline storage
                blackHole(text)
                sink &+= text.utf8.count &+ i
            }
        }
        let plain = Bench.measure("harness: arithmetic only", items: n, unit: "items") {
            for i in 0..<n { sink &+= opaque(i) }
        }
        precondition(sink != 42)
        return [allocating, plain]
    }
}
