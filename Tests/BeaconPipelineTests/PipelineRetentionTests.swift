import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import BeaconStrategies
import BeaconTestSupport
import Testing

/// `retention.history` in the pipeline: idle histories are swept on the cycles' time and removed
/// from the store in the input's transaction; with no retention they stay.
@Suite("Pipeline: history retention")
struct PipelineRetentionTests {
    typealias F = PipelineFixtures

    static func pipeline(retention: Duration?, store: InMemoryAlertStateStore) throws -> AlertPipeline {
        let alert = PipelineAlert(
            id: "welcome", match: BeaconMatch(.uuid(F.uuid, major: nil, minor: nil)), strategy: "enter",
            rule: AlertRule(id: "welcome", policy: try AlertPolicy(firing: .oncePerBeacon)))
        let pipeline = try AlertPipeline(alerts: [alert], registry: .builtIn(), store: store)
        pipeline.historyRetention = retention
        return pipeline
    }

    @Test(
        "a welcome delivered, then 3 idle hours: with a 1-hour retention the history leaves the store; without one it stays",
        arguments: [(Duration?.some(.seconds(3600)), 1), (nil, 0)])
    func sweptOnCycleTime(_ retention: Duration?, _ forgotten: Int) throws {
        let store = InMemoryAlertStateStore()
        let pipeline = try Self.pipeline(retention: retention, store: store)
        var delivered = 0
        try pipeline.ingest(F.batch((0..<10).map { (Double($0), 1) })) { if $0.event.kind == .delivered { delivered += 1 } }
        #expect(delivered == 1)
        #expect(try store.load().history.count == 1)
        try pipeline.advance(to: F.t0 + .seconds(3 * 3600)) { _ in }
        #expect(pipeline.historiesForgotten == forgotten)
        #expect(try store.load().history.count == 1 - forgotten)
        // Once forgotten, the beacon is welcomed again; while remembered, it is not.
        var again = 0
        let back = F.t0 + .seconds(3 * 3600 + 10)
        let batch = HCIReportBuilder.batch(uuid: F.uuid, (0..<10).map { (back + .seconds($0), 1) })
        try pipeline.ingest(batch) { if $0.event.kind == .delivered { again += 1 } }
        #expect(again == forgotten)
    }
}
