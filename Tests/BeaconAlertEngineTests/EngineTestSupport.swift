import BeaconAlertEngine
import BeaconCore

/// Shared fixtures for the engine tests: beacons, times written as RFC 3339, compact event
/// summaries.
enum EngineFixture {
    static let beaconA = BeaconID.iBeacon(uuidHigh: 0xE2C5_6DB5_DFFB_48D2, uuidLow: 0xB060_D0F5_A710_96E0, major: 1, minor: 1)
    static let beaconB = BeaconID.iBeacon(uuidHigh: 0xE2C5_6DB5_DFFB_48D2, uuidLow: 0xB060_D0F5_A710_96E0, major: 1, minor: 2)
    static let beaconC = BeaconID.iBeacon(uuidHigh: 0xE2C5_6DB5_DFFB_48D2, uuidLow: 0xB060_D0F5_A710_96E0, major: 1, minor: 3)

    /// A time written as RFC 3339 (parsed by Core, not by the engine).
    static func at(_ text: String) -> Timestamp {
        guard let time = Timestamp(rfc3339: text) else { fatalError("bad fixture time \(text)") }
        return time
    }

    /// Monday 2025-01-06 09:00 UTC.
    static let t0 = at("2025-01-06T09:00:00Z")

    static func engine(
        _ rules: [AlertRule], maxPending: Int = 64,
        store: InMemoryAlertStateStore = InMemoryAlertStateStore()
    ) throws -> StoredAlertEngine {
        try StoredAlertEngine(configuration: try AlertEngineConfiguration(rules: rules, maxPending: maxPending), store: store)
    }

    static func firing(_ alertID: String, _ beacon: BeaconID = beaconA, at time: Timestamp) -> StrategyFiring {
        StrategyFiring(alertID: alertID, beacon: beacon, strategy: "time", time: time)
    }
}

extension RoutedEvent {
    /// `kind alert due <scheduledFor>`, e.g. `created welcome due 2025-01-06T09:10:00.000Z`.
    var summary: String {
        "\(event.kind.rawValue) \(event.alertID) due \(event.scheduledFor?.rfc3339String ?? "-")"
    }

    /// The messages joined as the JSON line joins them.
    var joinedMessages: String { event.messages.joined(separator: " / ") }
}

extension StoredAlertEngine {
    /// Advances through every deadline up to `end`, as a live service sleeping until
    /// `nextDeadline` would, and returns every event.
    mutating func run(until end: Timestamp) throws -> [RoutedEvent] {
        var events: [RoutedEvent] = []
        while let deadline = nextDeadline, deadline <= end {
            events += try advance(to: deadline)
        }
        return events
    }
}
