// beacond-bench [NAME…]: runs the named benchmark groups (all when none is named) in release mode
// and prints one line per figure. `make bench` runs it; BENCHMARKS.md records the figures.

/// The benchmark groups, by name. Each group lives in its own file (`<Group>Benchmarks.swift`).
let groups: [(name: String, run: () throws -> [BenchResult])] = [
    ("sanity", SanityBenchmarks.run),
    ("parse", ParseBenchmarks.run),
    ("ranging", RangingBenchmarks.run),
    ("simulator", SimulatorBenchmarks.run),
    ("engine", AlertEngineBenchmarks.run),
    ("capture", CaptureBenchmarks.run),
    ("strategies", StrategyBenchmarks.run),
    ("day", DayBenchmarks.run),
    ("site", SiteBenchmarks.run),
    ("devices", DeviceBenchmarks.run),
]

let wanted = Set(CommandLine.arguments.dropFirst())
for group in groups where wanted.isEmpty || wanted.contains(group.name) {
    print("== \(group.name)")
    for result in try group.run() { Bench.report(result) }
}
