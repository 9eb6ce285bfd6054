import BeaconCore
import BeaconStrategies
import BeaconStrategyKit

/// Strategy evaluation cost: 100,000 beacons per cycle under TimeAlertStrategy, in steady state
/// (every beacon already tracked; the measured cycles cross the 60 s dwell, so one of them fires
/// for two thirds of the beacons), called on the concrete type and through `any BeaconAlertStrategy`
/// as an alert engine holding a heterogeneous list would. A third figure counts the allocations
/// of beacon churn: forgetting every beacon and tracking it again.
enum StrategyBenchmarks {
    static let beaconCount = 100_000
    static let cyclesPerRun = 10

    static func run() -> [BenchResult] {
        // Every third beacon stays in its missed-scan grace (never seen); the others are seen.
        var beacons = (0..<beaconCount).map { index in
            RangedBeacon(
                id: .iBeacon(
                    uuidHigh: 0xE2C5_6DB5_DFFB_48D2, uuidLow: 0xB060_D0F5_A710_96E0,
                    major: UInt16(index >> 16), minor: UInt16(truncatingIfNeeded: index)),
                lastAddress: BluetoothAddress(rawValue: UInt64(index)), seenThisCycle: index % 3 != 0,
                sampleCount: 1, lastRSSI: -60, meanRSSI: -60, filteredRSSI: -60, measuredPower: -59,
                distance: 1.2, accuracy: 0.5, proximity: .near, firstSeen: .epoch, lastSeen: .epoch)
        }
        var triggers: [AlertTrigger] = []
        triggers.reserveCapacity(beaconCount)
        var second = 0

        func cycle(_ strategies: [any BeaconAlertStrategy]?, _ concrete: TimeAlertStrategy?) {
            let now = Timestamp.epoch + .seconds(second)
            second += 1
            for index in beacons.indices where beacons[index].seenThisCycle { beacons[index].lastSeen = now }
            triggers.removeAll(keepingCapacity: true)
            if let concrete { concrete.evaluate(beacons, now: now, into: &triggers) }
            for strategy in strategies ?? [] { strategy.evaluate(beacons, now: now, into: &triggers) }
            blackHole(triggers.count)
        }

        let time = TimeAlertStrategy(.init(dwell: .seconds(60), gap: .seconds(3)), capacity: beaconCount)
        for _ in 0..<3 { cycle(nil, time) } // every beacon tracked, tables at capacity
        var concrete = Bench.measure(
            "strategies: TimeAlertStrategy, 100k beacons per cycle",
            items: beaconCount * cyclesPerRun, unit: "beacon-cycles"
        ) {
            for _ in 0..<cyclesPerRun { cycle(nil, time) }
        }
        concrete.extra.append(("tracked", "\(time.trackedBeaconCount)"))

        second = 0
        let erased: [any BeaconAlertStrategy] = [TimeAlertStrategy(.init(), capacity: beaconCount)]
        for _ in 0..<3 { cycle(erased, nil) }
        let existential = Bench.measure(
            "strategies: any BeaconAlertStrategy (time), 100k beacons per cycle",
            items: beaconCount * cyclesPerRun, unit: "beacon-cycles"
        ) {
            for _ in 0..<cyclesPerRun { cycle(erased, nil) }
        }

        // Churn: every beacon forgotten (unseen longer than the retention), then tracked afresh.
        let churned = TimeAlertStrategy(.init(), capacity: beaconCount)
        churned.evaluate(beacons, now: .epoch, into: &triggers)
        var start = 0
        let churn = Bench.measure(
            "strategies: forget and re-track 100k beacons", items: beaconCount * 2,
            unit: "beacon-events"
        ) {
            start += 1_000
            churned.finishCycle(now: .epoch + .seconds(start)) { blackHole($0) }
            precondition(churned.trackedBeaconCount == 0)
            churned.evaluate(beacons, now: .epoch + .seconds(start + 1), into: &triggers)
        }
        return [concrete, existential, churn]
    }
}
