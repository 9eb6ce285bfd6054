import BeaconAlerting
import BeaconCore
import BeaconStrategies

/// Strategy evaluation cost: 100,000 beacons per cycle under TimeAlertStrategy, in steady state
/// (every beacon already tracked; the run also crosses the dwell, so some cycles fire).
enum StrategyBenchmarks {
    static func run() -> [BenchResult] {
        let beaconCount = 100_000
        let cyclesPerRun = 10
        let ids = (0..<beaconCount).map {
            BeaconID.iBeacon(uuidHigh: 0xE2C5_6DB5_DFFB_48D2, uuidLow: 0xB060_D0F5_A710_96E0,
                             major: UInt16($0 >> 16), minor: UInt16(truncatingIfNeeded: $0))
        }
        // Every third beacon is missing from a cycle's scan (in grace), the rest are seen.
        var beacons = ids.enumerated().map { index, id in
            RangedBeacon(id: id, lastAddress: BluetoothAddress(rawValue: UInt64(index)), seenThisCycle: index % 3 != 0,
                         sampleCount: 1, lastRSSI: -60, meanRSSI: -60, filteredRSSI: -60, measuredPower: -59,
                         distance: 1.2, accuracy: 0.5, proximity: .near, firstSeen: .epoch, lastSeen: .epoch)
        }
        let strategy = TimeAlertStrategy(.init(dwell: .seconds(60), gap: .seconds(3)), capacity: beaconCount)
        var triggers: [AlertTrigger] = []
        triggers.reserveCapacity(beaconCount)
        var second = 0
        func cycle() {
            let now = Timestamp(nanosecondsSinceEpoch: Int64(second) * 1_000_000_000)
            second += 1
            for index in beacons.indices where beacons[index].seenThisCycle { beacons[index].lastSeen = now }
            triggers.removeAll(keepingCapacity: true)
            strategy.evaluate(beacons, now: now, into: &triggers)
            blackHole(triggers.count)
        }
        for _ in 0..<3 { cycle() }   // every beacon tracked, tables at capacity
        var result = Bench.measure("strategies: TimeAlertStrategy, 100k beacons per cycle", items: beaconCount * cyclesPerRun,
                                   unit: "beacon-cycles") {
            for _ in 0..<cyclesPerRun { cycle() }
        }
        result.extra.append(("tracked", "\(strategy.trackedBeaconCount)"))

        // The same through an existential, as an engine holding `[any BeaconAlertStrategy]` sees it.
        let erased: [any BeaconAlertStrategy] = [TimeAlertStrategy(.init(), capacity: beaconCount)]
        func erasedCycle() {
            let now = Timestamp(nanosecondsSinceEpoch: Int64(second) * 1_000_000_000)
            second += 1
            triggers.removeAll(keepingCapacity: true)
            for strategy in erased { strategy.evaluate(beacons, now: now, into: &triggers) }
            blackHole(triggers.count)
        }
        for _ in 0..<3 { erasedCycle() }
        let existential = Bench.measure("strategies: any BeaconAlertStrategy (time), 100k beacons per cycle",
                                        items: beaconCount * cyclesPerRun, unit: "beacon-cycles") {
            for _ in 0..<cyclesPerRun { erasedCycle() }
        }
        let probeNow = Timestamp(nanosecondsSinceEpoch: Int64(second) * 1_000_000_000)
        let probeUpdate = Bench.measure("probe: update only", items: beaconCount, unit: "beacons") {
            for beacon in beacons { strategy.update(beacon: beacon, now: probeNow) }
        }
        let probeEvaluate = Bench.measure("probe: evaluate(beacon:) only", items: beaconCount, unit: "beacons") {
            for beacon in beacons { blackHole(strategy.evaluate(beacon: beacon, now: probeNow)) }
        }
        let probeFinish = Bench.measure("probe: finishCycle only", items: beaconCount, unit: "beacons") {
            strategy.finishCycle(now: probeNow) { blackHole($0) }
        }
        let probeLookup = Bench.measure("probe: parameter(for:)", items: beaconCount, unit: "beacons") {
            for beacon in beacons { blackHole(strategy.parameter(for: beacon.id)) }
        }
        do {
            let fresh = TimeAlertStrategy(.init(dwell: .seconds(1)), capacity: beaconCount)
            for b in beacons { _ = fresh.evaluate(beacon: b, now: .epoch) }
            var before = Bench.allocations
            var fires = 0
            for b in beacons where fresh.evaluate(beacon: b, now: .epoch + .seconds(1)) { fires += 1 }
            print("probe fire path: \(fires) fires, \(Bench.allocations - before) allocations")
            let fresh2 = TimeAlertStrategy(.init(dwell: .seconds(1)), capacity: beaconCount)
            var t2: [AlertTrigger] = []
            t2.reserveCapacity(beaconCount)
            fresh2.evaluate(beacons, now: .epoch, into: &t2)
            before = Bench.allocations
            fresh2.evaluate(beacons, now: .epoch + .seconds(1), into: &t2)
            print("probe fire cycle: \(t2.count) fires, \(Bench.allocations - before) allocations")
            before = Bench.allocations
            fresh2.finishCycle(now: .epoch + .seconds(100)) { _ in }
            print("probe evict all: \(fresh2.trackedBeaconCount) left, \(Bench.allocations - before) allocations")
            before = Bench.allocations
            fresh2.evaluate(beacons, now: .epoch + .seconds(101), into: &t2)
            print("probe reinsert all: \(fresh2.trackedBeaconCount) tracked, \(Bench.allocations - before) allocations")
        }
        return [result, existential, probeUpdate, probeEvaluate, probeFinish, probeLookup]
    }
}
