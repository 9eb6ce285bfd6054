import BeaconAlertEngine
import BeaconCore

/// The alert engine per alert (not a per-packet path: it runs once per strategy firing): an
/// immediate firing, a delayed one delivered by `advance`, and the delivery-window arithmetic.
enum AlertEngineBenchmarks {
    static func run() throws -> [BenchResult] {
        let n = 2_000
        let start = Timestamp(rfc3339: "2025-01-06T09:00:00Z")!
        let beacons = (0..<n).map { BeaconID.iBeacon(uuidHigh: 1, uuidLow: 2, major: 1, minor: UInt16($0)) }
        var sink = 0
        let immediate = try Bench.measure("engine: immediate firing (created + delivered)", items: n, unit: "alerts") {
            var engine = try StoredAlertEngine(
                configuration: try AlertEngineConfiguration(rules: [AlertRule(id: "a")]),
                store: InMemoryAlertStateStore())
            for (i, beacon) in beacons.enumerated() {
                let time = start + .seconds(Int64(i))
                sink &+= try engine.fire(StrategyFiring(alertID: "a", beacon: beacon, strategy: "time", time: time), now: time)
                    .count
            }
        }
        func delayed(pending: Int) throws -> BenchResult {
            try Bench.measure("engine: delayed firing, delivered by advance (\(pending) pending)", items: pending, unit: "alerts")
            {
                let rule = AlertRule(id: "a", policy: try AlertPolicy(delay: .seconds(3600)))
                var engine = try StoredAlertEngine(
                    configuration: try AlertEngineConfiguration(rules: [rule], maxPending: pending),
                    store: InMemoryAlertStateStore())
                for beacon in beacons.prefix(pending) {
                    sink &+= try engine.fire(
                        StrategyFiring(alertID: "a", beacon: beacon, strategy: "time", time: start), now: start
                    ).count
                }
                sink &+= try engine.advance(to: start + .seconds(3600)).count
            }
        }
        let window = try DeliveryWindow(
            days: ["mon", "tue", "wed", "thu", "fri"], from: "08:00", to: "18:00",
            timeZone: "Europe/Paris")
        let opening = Bench.measure("window: next opening (Europe/Paris)", items: n, unit: "lookups") {
            for i in 0..<n {
                sink &+= Int(window.nextOpening(atOrAfter: start + .seconds(Int64(opaque(i)) * 977)).nanosecondsSinceEpoch & 1)
            }
        }
        precondition(sink != 42)
        return [immediate, try delayed(pending: 64), try delayed(pending: n), opening]
    }
}
