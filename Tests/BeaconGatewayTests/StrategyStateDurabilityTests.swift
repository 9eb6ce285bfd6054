import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconPipeline
import BeaconStore
import BeaconStrategies
import Foundation
import Testing

/// A pipeline on a SQLite state file, stopped dead between two inputs (as `kill -9` leaves it:
/// every input is one committed transaction) and built again on the same file: the strategies'
/// per-beacon state comes back with the engine's, so the events of the interrupted run are
/// exactly those of an uninterrupted one — nothing repeated, nothing lost — in every firing mode.
@Suite("Strategy state survives a restart", .serialized)
struct StrategyStateDurabilityTests {
    /// Dwell 60 s, gap 3 s, reset 30 s; present 0–70 s, 90–200 s, 240–310 s (see
    /// StrategyContractTests): `every-activation` alerts at 61 s and 301 s, the others at 61 s.
    static let timeline = Timeline(present: [(0, 70), (90, 200), (240, 310)])

    static func alerts(_ firing: String) -> String {
        """
          - id: dwell
            strategy: time
            parameters: {dwell: 60s, gap: 3s, maxTimeBeforeReset: 30s}
            firing: \(firing)
          - id: arrive
            strategy: all-of
            parameters: {of: [{strategy: enter, absence: 20s}, {strategy: rssi, threshold: -70, cycles: 1}], maxTimeBeforeReset: 10s}
            firing: \(firing)

        """
    }

    static func pipeline(_ firing: String, state path: String) throws -> AlertPipeline {
        try AlertPipeline(
            configuration: GatewayConfiguration(node: ConfigNode(yaml: "alerts:\n" + alerts(firing))),
            registry: .builtIn(), store: SQLiteAlertStateStore(path: path))
    }

    /// The run's events as `kind alert seconds`, fed in one go or restarted before the
    /// sightings at each of `restarts` (seconds).
    static func run(_ firing: String, restartingAt restarts: [Double]) throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("durable-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state.sqlite").path
        var pipeline = try pipeline(firing, state: state)
        var events: [String] = []
        let emit: (RoutedEvent) -> Void = { routed in
            events.append(
                "\(routed.event.kind) \(routed.event.alertID) \((routed.event.time - Timeline.start).components.seconds)")
        }
        var pending = restarts.sorted()
        for sighting in timeline.sightings {
            if let next = pending.first, sighting.timestamp >= Timeline.start + .milliseconds(Int64(next * 1000)) {
                pending.removeFirst()
                pipeline = try Self.pipeline(firing, state: state) // the old one is dropped without a word
            }
            try pipeline.ingest(sighting, emit: emit)
        }
        try pipeline.advance(to: Timeline.start + .seconds(400), emit: emit)
        return events
    }

    @Test(
        "kill -9 mid-visit and restart: the same events as an uninterrupted run",
        arguments: ["every-activation", "once-per-beacon", "first"])
    func restartMidVisit(_ firing: String) throws {
        let reference = try Self.run(firing, restartingAt: [])
        let delivered = reference.filter { $0.hasPrefix("delivered dwell") }
        #expect(
            delivered == (firing == "every-activation" ? ["delivered dwell 61", "delivered dwell 301"] : ["delivered dwell 61"]))
        // Before the dwell is reached (30 s), just after the alert (65 s), in visit 2 (150 s),
        // during the reset (220 s) and in visit 3 before and after its alert (260 s, 305 s).
        for restarts in [[30.0], [65], [150], [220], [260, 305], [30, 65, 150, 220, 260, 305]] {
            #expect(try Self.run(firing, restartingAt: restarts) == reference, "restarted at \(restarts)")
        }
    }

    @Test("the control: without saved strategy state a restart mid-visit alerts again")
    func withoutStateItRepeats() throws {
        // The control: a 10 s dwell, restarted at 30 s in a 70 s visit. Without the saved
        // state the restarted strategy sees a new visit and alerts again at 41 s.
        let short = "alerts:\n  - {id: dwell, strategy: time, parameters: {dwell: 10s, gap: 3s, maxTimeBeforeReset: 30s}}\n"
        for keeps in [false, true] {
            let store = InMemoryAlertStateStore(keepsStrategyState: keeps)
            var pipeline = try AlertPipeline(
                configuration: GatewayConfiguration(node: ConfigNode(yaml: short)),
                registry: .builtIn(), store: store)
            var count = 0
            for sighting in Timeline(present: [(0, 70)]).sightings {
                if sighting.timestamp == Timeline.start + .seconds(30) {
                    pipeline = try AlertPipeline(
                        configuration: GatewayConfiguration(node: ConfigNode(yaml: short)),
                        registry: .builtIn(), store: store)
                }
                try pipeline.ingest(sighting) { if $0.event.kind == .delivered { count += 1 } }
            }
            #expect(count == (keeps ? 1 : 2), "keepsStrategyState: \(keeps)")
        }
    }

    @Test("a saved state that cannot be read starts that strategy afresh and says so")
    func unreadableState() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("durable-bad-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("state.sqlite").path
        let store = try SQLiteAlertStateStore(path: path)
        let key = SavedStrategyState.Key(alertID: "dwell", part: "", beacon: Timeline(present: []).beacon)
        try store.apply([.putStrategyState(SavedStrategyState(key: key, strategy: "time", state: [9, 9, 9]))])
        let pipeline = try Self.pipeline("every-activation", state: path)
        #expect(pipeline.durabilityWarnings.count == 1)
        #expect(pipeline.durabilityWarnings.first?.contains("alert 'dwell'") == true)
        #expect(pipeline.durabilityWarnings.first?.contains("cannot be read") == true)
        try pipeline.advance(to: Timeline.start, emit: { _ in })
        #expect(try store.load().strategyStates.isEmpty, "the unreadable state was removed")
    }
}
