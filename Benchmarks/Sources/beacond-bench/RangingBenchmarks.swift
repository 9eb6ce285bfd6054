import BeaconCore
import BeaconRanging
import CMallocCounter

#if canImport(Glibc)
import Glibc
#endif

/// Advertisements per second through the ranging loop (default configuration: ARMA filter,
/// log-distance model, 1 s cycles) with 1,000 and 100,000 tracked beacons, each advertising 10
/// times per cycle, cycle emission included; and heap bytes per tracked beacon.
enum RangingBenchmarks {
    static func run() throws -> [BenchResult] {
        try [throughput(beacons: 1_000, cycles: 100), throughput(beacons: 100_000, cycles: 2)]
    }

    static func id(_ i: Int) -> BeaconID {
        .iBeacon(uuidHigh: 0xE2C5_6DB5_DFFB_48D2, uuidLow: 0xB060_D0F5_A710_96E0,
                 major: UInt16(truncatingIfNeeded: i >> 16), minor: UInt16(truncatingIfNeeded: i))
    }

    static func throughput(beacons n: Int, cycles: Int) throws -> BenchResult {
        let perCycle = 10
        let ids = (0..<n).map(id)
        let start: Int64 = 1_700_000_000 * 1_000_000_000
        var loop = try RangingLoop()
        var time = start
        var emitted = 0
        var rssi: Int8 = -60
        // Sightings cover `cycles` seconds: each beacon 10 times per second, interleaved.
        func feed(_ loop: inout RangingLoop) {
            let step = 1_000_000_000 / Int64(n * perCycle)
            for _ in 0..<cycles {
                for _ in 0..<perCycle {
                    for i in 0..<n {
                        rssi = rssi == -80 ? -60 : rssi &- 1
                        let s = BeaconSighting(timestamp: Timestamp(nanosecondsSinceEpoch: time), id: ids[i],
                                               address: BluetoothAddress(rawValue: UInt64(i)), addressType: .random,
                                               rssi: rssi, measuredPower: -59)
                        loop.ingest(s) { emitted &+= $0.beacons.count }
                        time &+= max(1, step)
                    }
                }
            }
        }
        let rssBefore = residentBytes()
        feed(&loop)   // creates the tracked beacons
        let rssAfter = residentBytes()
        var result = Bench.measure("ranging: \(n) tracked beacons, default filter",
                                   items: n * perCycle * cycles, unit: "advertisements") { feed(&loop) }
        precondition(emitted > 0 && loop.trackedCount == n)
        result.extra = [
            ("reserved bytes/tracked beacon", Bench.format(Double(loop.reservedHeapBytes) / Double(n), 0)),
            ("RSS growth bytes/tracked beacon", Bench.format(Double(rssAfter - rssBefore) / Double(n), 0)),
            ("TrackedBeacon stride", "\(RangingLoop.trackedBeaconStride) B"),
        ]
        return result
    }

    /// Resident set size in bytes (Linux `/proc/self/statm`, second field × page size), 0 elsewhere.
    static func residentBytes() -> Int {
        #if canImport(Glibc)
        guard let file = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(file) }
        var size = 0, resident = 0
        guard withUnsafeMutablePointer(to: &size, { s in
            withUnsafeMutablePointer(to: &resident) { r in
                withVaList([s, r]) { vfscanf(file, "%ld %ld", $0) }
            }
        }) == 2 else { return 0 }
        return resident * sysconf(Int32(_SC_PAGESIZE))
        #else
        return 0
        #endif
    }
}
