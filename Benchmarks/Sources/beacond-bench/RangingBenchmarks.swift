import BeaconCore
import BeaconRanging
import CMallocCounter

#if canImport(Glibc)
import Glibc
#endif

/// Advertisements per second through the ranging loop (default configuration: ARMA filter,
/// log-distance model, 1 s cycles) with 1,000 and 100,000 tracked beacons, each advertising 10
/// times per cycle, cycle emission included; and heap bytes per tracked beacon. The beacons
/// advertise in turn (beacon 0, 1, 2, …), or — the `shuffled` variant, added with issue 4 — in a
/// random order within each cycle (each still 10 times), as a crowd of real advertisers would:
/// then consecutive advertisements touch unrelated parts of the tracked state.
enum RangingBenchmarks {
    static func run() throws -> [BenchResult] {
        try [
            throughput(beacons: 1_000, cycles: 100, batched: false),
            throughput(beacons: 1_000, cycles: 100, batched: true),
            throughput(beacons: 100_000, cycles: 2, batched: false),
            throughput(beacons: 100_000, cycles: 2, batched: true),
            throughput(beacons: 100_000, cycles: 2, batched: false, shuffled: true),
            throughput(beacons: 100_000, cycles: 2, batched: true, shuffled: true),
        ]
    }

    static func id(_ i: Int) -> BeaconID {
        .iBeacon(
            uuidHigh: 0xE2C5_6DB5_DFFB_48D2, uuidLow: 0xB060_D0F5_A710_96E0,
            major: UInt16(truncatingIfNeeded: i >> 16), minor: UInt16(truncatingIfNeeded: i))
    }

    /// `batched`: sightings go through `ingest(contentsOf:)` in batches of 64 (as a source's
    /// packet batch would deliver them) instead of one `ingest` call each. `shuffled`: within a
    /// cycle the n × 10 advertisements come in a fixed random order instead of in turn.
    static func throughput(beacons n: Int, cycles: Int, batched: Bool, shuffled: Bool = false) throws -> BenchResult {
        let perCycle = 10
        let ids = (0..<n).map(id)
        // Shuffled: which beacon advertises at each position of a cycle (n × perCycle positions).
        var order: [Int32] = []
        if shuffled {
            var rng = SplitMix64(seed: 4)
            order = (0..<(n * perCycle)).map { Int32($0 % n) }
            order.shuffle(using: &rng)
        }
        let start: Int64 = 1_700_000_000 * 1_000_000_000
        // Every beacon is real and new in the first cycle: no cap on newcomers.
        var loop = try RangingLoop(configuration: RangingConfiguration(maxNewPerCycle: n))
        var time = start
        var emitted = 0
        var rssi: Int8 = -60
        var batch: [BeaconSighting] = []
        batch.reserveCapacity(64)
        let handler: (RangingUpdate) -> Void = { emitted &+= $0.beacons.count }
        // Sightings cover `cycles` seconds: each beacon 10 times per second, interleaved.
        func feed(_ loop: inout RangingLoop) {
            let step = 1_000_000_000 / Int64(n * perCycle)
            for _ in 0..<cycles {
                for round in 0..<perCycle {
                    for j in 0..<n {
                        let i = shuffled ? Int(order[round * n + j]) : j
                        rssi = rssi == -80 ? -60 : rssi &- 1
                        // Shuffled: the identity is computed, not read from `ids` — a real source parses
                        // it from the frame; a random read of `ids` would add a cache miss of the harness.
                        let s = BeaconSighting(
                            timestamp: Timestamp(nanosecondsSinceEpoch: time), id: shuffled ? id(i) : ids[i],
                            address: BluetoothAddress(rawValue: UInt64(i)), addressType: .random,
                            rssi: rssi, measuredPower: -59)
                        if batched {
                            batch.append(s)
                            if batch.count == 64 {
                                batch.withUnsafeBufferPointer { loop.ingest(contentsOf: $0, onUpdate: handler) }
                                batch.removeAll(keepingCapacity: true)
                            }
                        } else {
                            loop.ingest(s, onUpdate: handler)
                        }
                        time &+= max(1, step)
                    }
                }
            }
            batch.withUnsafeBufferPointer { loop.ingest(contentsOf: $0, onUpdate: handler) }
            batch.removeAll(keepingCapacity: true)
        }
        let rssBefore = residentBytes()
        feed(&loop) // creates the tracked beacons
        let rssAfter = residentBytes()
        var result = Bench.measure(
            "ranging: \(n) tracked beacons, default filter\(shuffled ? ", shuffled order" : "")"
                + (batched ? ", batches of 64" : ""),
            items: n * perCycle * cycles, unit: "advertisements"
        ) { feed(&loop) }
        // The same work timed in thread CPU time: robust against other processes on a shared machine.
        var bestCPU = Double.infinity
        for _ in 0..<3 {
            let before = threadCPUSeconds()
            feed(&loop)
            bestCPU = min(bestCPU, threadCPUSeconds() - before)
        }
        precondition(emitted > 0 && loop.trackedCount == n)
        result.extra = [
            ("CPU-time rate", Bench.format(Double(n * perCycle * cycles) / bestCPU / 1e6, 2) + " M advertisements/s"),
            ("reserved bytes/tracked beacon", Bench.format(Double(loop.reservedHeapBytes) / Double(n), 0)),
            ("RSS growth bytes/tracked beacon", Bench.format(Double(rssAfter - rssBefore) / Double(n), 0)),
            ("tracked state stride", "\(RangingLoop.trackedBeaconStride) B (\(RangingLoop.hotStateStride) B per advertisement)"),
        ]
        return result
    }

    /// CPU time consumed by the calling thread (s).
    static func threadCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Resident set size in bytes (Linux `/proc/self/statm`, second field × page size), 0 elsewhere.
    static func residentBytes() -> Int {
        #if canImport(Glibc)
        guard let file = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(file) }
        var size = 0, resident = 0
        guard
            withUnsafeMutablePointer(
                to: &size,
                { s in
                    withUnsafeMutablePointer(to: &resident) { r in
                        withVaList([s, r]) { vfscanf(file, "%ld %ld", $0) }
                    }
                }) == 2
        else { return 0 }
        return resident * sysconf(Int32(_SC_PAGESIZE))
        #else
        return 0
        #endif
    }
}
