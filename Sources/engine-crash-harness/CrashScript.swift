import BeaconAlertEngine
import BeaconCore

/// The scripted engine run the crash test replays: firings, deliveries, a repeating series, a
/// cooldown, a cancellation — one step at a time.
enum CrashScript {
    static let beaconA = BeaconID.iBeacon(uuidHigh: 0xE2C5_6DB5_DFFB_48D2, uuidLow: 0xB060_D0F5_A710_96E0, major: 1, minor: 1)
    static let beaconB = BeaconID.eddystoneUID(
        namespaceHigh: 0xEDD1, namespaceLow: 0xEBEA_C04E_5DEF_A017, instance: 0x0BDB_87C5_8000)

    static func at(_ text: String) -> Timestamp { Timestamp(rfc3339: text)! }

    static func configuration() throws -> AlertEngineConfiguration {
        try AlertEngineConfiguration(rules: [
            AlertRule(
                id: "welcome", content: AlertContent(title: "Welcome"),
                policy: try AlertPolicy(delay: .seconds(600), firing: .oncePerBeacon)),
            AlertRule(
                id: "hourly", policy: try AlertPolicy(delay: .seconds(300), repeat: .hourly, cancelOn: [.event("closing")])),
            AlertRule(id: "again", policy: try AlertPolicy(firing: .everyActivation, cooldown: .seconds(1800))),
        ])
    }

    enum Step {
        case fire(String, BeaconID, Timestamp)
        case fact(EngineFact, Timestamp)
        case advance(Timestamp)
    }

    static let steps: [Step] = [
        .fire("welcome", beaconA, at("2025-01-06T09:00:00Z")),
        .fire("hourly", beaconB, at("2025-01-06T09:00:00Z")),
        .fire("again", beaconA, at("2025-01-06T09:01:00Z")),
        .advance(at("2025-01-06T09:05:00Z")),
        .fire("again", beaconA, at("2025-01-06T09:06:00Z")),
        .advance(at("2025-01-06T09:10:00Z")),
        .fire("welcome", beaconA, at("2025-01-06T09:20:00Z")),
        .advance(at("2025-01-06T10:05:00Z")),
        .fire("again", beaconA, at("2025-01-06T10:06:00Z")),
        .advance(at("2025-01-06T11:05:00Z")),
        .fact(.external(name: "closing", beacon: nil), at("2025-01-06T11:30:00Z")),
        .advance(at("2025-01-06T13:00:00Z")),
    ]

    static func run(_ step: Step, on engine: inout StoredAlertEngine) throws -> [RoutedEvent] {
        switch step {
        case .fire(let alertID, let beacon, let time):
            try engine.fire(StrategyFiring(alertID: alertID, beacon: beacon, strategy: "time", time: time), now: time)
        case .fact(let fact, let time): try engine.handle(fact, now: time)
        case .advance(let time): try engine.advance(to: time)
        }
    }
}
