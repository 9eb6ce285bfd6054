import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import BeaconStrategies
import BeaconStrategyKit
import Testing

/// `firstStart: quiet` through the pipeline (issue 39): the beacons heard in an alert's first
/// ten seconds do not alert until they have gone; later ones alert as usual; a restart keeps
/// the quiet; `fire` (the default) alerts for everyone.
@Suite("A quiet first start")
struct FirstStartPipelineTests {
    private typealias F = PipelineFixtures

    /// One beacon (by minor) heard once a second over [from, to) seconds after `F.t0`.
    struct Presence {
        let minor: UInt16
        let from: Int
        let to: Int
    }

    static func alert(
        _ firstStart: FirstStart, strategy: String = "enter", parameters: StrategyParameters = [:]
    ) throws -> PipelineAlert {
        PipelineAlert(
            id: "welcome", match: BeaconMatch(.uuid(F.uuid, major: nil, minor: nil)), strategy: strategy,
            parameters: parameters, rule: AlertRule(id: "welcome", policy: try AlertPolicy(firstStart: firstStart)))
    }

    /// Runs seconds [start, end) of `presences` through `pipeline`; returns each delivery as
    /// (the second it came in, the beacon's minor).
    static func run(
        _ pipeline: AlertPipeline, _ presences: [Presence], from start: Int = 0, to end: Int
    ) throws -> [(second: Int, minor: UInt16)] {
        var delivered: [(second: Int, minor: UInt16)] = []
        for second in start..<end {
            let emit: (RoutedEvent) throws -> Void = { routed in
                if routed.event.kind == .delivered { delivered.append((second, routed.event.beacon.minor)) }
            }
            let heard = presences.filter { second >= $0.from && second < $0.to }.map { (Double(second) + 0.5, $0.minor) }
            if !heard.isEmpty { try pipeline.ingest(F.batch(heard), emit: emit) }
            try pipeline.advance(to: F.t0 + .seconds(Int64(second + 1)), emit: emit)
        }
        return delivered
    }

    /// Beacon 1 in range from the start for a minute, away for a minute (ranging forgets it after
    /// 30 s), back for ten seconds; beacon 2 arriving at 30 s, after the first ten seconds.
    static let visits = [
        Presence(minor: 1, from: 0, to: 60), Presence(minor: 2, from: 30, to: 40), Presence(minor: 1, from: 120, to: 130),
    ]

    @Test("quiet: the beacon in range at the start alerts only on its next visit; the later one at once")
    func quiet() throws {
        let pipeline = try AlertPipeline(alerts: [try Self.alert(.quiet)], registry: .builtIn())
        let delivered = try Self.run(pipeline, Self.visits, to: 140)
        #expect(delivered.map(\.minor) == [2, 1], "\(delivered)")
        #expect(delivered.first.map { (30...32).contains($0.second) } == true, "\(delivered)")
        #expect(delivered.last.map { (120...122).contains($0.second) } == true, "\(delivered)")
    }

    @Test("fire (the default): the beacon in range at the start alerts at once")
    func fire() throws {
        let pipeline = try AlertPipeline(alerts: [try Self.alert(.fire)], registry: .builtIn())
        let delivered = try Self.run(pipeline, Self.visits, to: 140)
        #expect(delivered.map(\.minor) == [1, 2, 1], "\(delivered)")
        #expect(delivered.first.map { $0.second <= 2 } == true, "\(delivered)")
    }

    @Test("a restart during the visit under way keeps the quiet: the dwell reached after it does not alert")
    func restartKeepsQuiet() throws {
        let store = InMemoryAlertStateStore(keepsStrategyState: true)
        let dwell = try Self.alert(
            .quiet, strategy: "time", parameters: ["dwell": "60s", "gap": "10s", "maxTimeBeforeReset": "30s"])
        // Beacon 1 from the start, beacon 2 from 35 s: both stay until 150 s.
        let presences = [Presence(minor: 1, from: 0, to: 150), Presence(minor: 2, from: 35, to: 150)]
        let before = try AlertPipeline(alerts: [dwell], registry: .builtIn(), store: store)
        #expect(try Self.run(before, presences, to: 30).isEmpty)
        // The restart: a new pipeline on the same store, not a first start any more.
        let after = try AlertPipeline(alerts: [dwell], registry: .builtIn(), store: store)
        let delivered = try Self.run(after, presences, from: 30, to: 150)
        #expect(delivered.map(\.minor) == [2], "\(delivered)")
    }

    @Test("an alert added to a running pipeline starts quiet; an alert already running does not start again")
    func addedAlert() throws {
        let staff = PipelineAlert(
            id: "staff", match: BeaconMatch(.uuid(F.uuid, major: nil, minor: nil)), strategy: "enter",
            rule: AlertRule(id: "staff", policy: try AlertPolicy(firstStart: .quiet)))
        let pipeline = try AlertPipeline(alerts: [staff], registry: .builtIn())
        // Beacon 1 from the start; beacon 3 just after the new alert comes; beacon 2 later.
        let presences = [
            Presence(minor: 1, from: 0, to: 100), Presence(minor: 3, from: 21, to: 100), Presence(minor: 2, from: 40, to: 100),
        ]
        var delivered: [String] = []
        func run(_ seconds: Range<Int>) throws {
            for second in seconds {
                let emit: (RoutedEvent) throws -> Void = { routed in
                    if routed.event.kind == .delivered {
                        delivered.append("\(routed.event.alertID) \(routed.event.beacon.minor)")
                    }
                }
                let heard = presences.filter { second >= $0.from && second < $0.to }.map { (Double(second) + 0.5, $0.minor) }
                if !heard.isEmpty { try pipeline.ingest(F.batch(heard), emit: emit) }
                try pipeline.advance(to: F.t0 + .seconds(Int64(second + 1)), emit: emit)
            }
        }
        try run(0..<20)
        #expect(delivered.isEmpty)
        try pipeline.replaceAlerts([staff, try Self.alert(.quiet)], registry: .builtIn())
        try run(20..<100)
        // "staff" alerts for beacon 3 (its own first start ended long ago); "welcome", added at
        // 20 s, keeps quiet for beacons 1 and 3 and alerts for beacon 2. Neither for beacon 1.
        #expect(delivered.sorted() == ["staff 2", "staff 3", "welcome 2"], "\(delivered)")
    }
}
