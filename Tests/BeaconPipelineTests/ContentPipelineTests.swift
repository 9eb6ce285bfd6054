import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import BeaconStrategies
import BeaconStrategyKit
import Testing

/// Content per occurrence through the pipeline (issue 39, item 1), on packets with written-out
/// times: the dwell is the beacon's time in range at the event, and each reminder says the next
/// message.
@Suite("Content per occurrence in the pipeline")
struct ContentPipelineTests {
    private typealias F = PipelineFixtures

    static func alert() throws -> PipelineAlert {
        let variations = ContentVariations(
            title: try ContentTemplate(parsing: "{name} waits"),
            messages: [
                try .init(parsing: "Waiting {dwell} (delivery {attempt})"), try .init(parsing: "Still there after {dwell}"),
                try .init(parsing: "Someone please go: {dwell}"),
            ], pick: .inTurn)
        return PipelineAlert(
            id: "desk", match: BeaconMatch(.uuid(F.uuid, major: nil, minor: nil)), strategy: "time",
            parameters: ["dwell": "20s", "gap": "10s", "maxTimeBeforeReset": "30s"],
            rule: AlertRule(
                id: "desk", content: AlertContent(title: "{name} waits", message: "Waiting"),
                policy: try AlertPolicy(remind: try ReminderPolicy(every: .seconds(30), max: 3)), variations: variations))
    }

    @Test("the first delivery and each reminder say the next message, round the list, with the dwell at that moment")
    func remindersSayTheNext() throws {
        let pipeline = try AlertPipeline(alerts: [try Self.alert()], registry: .builtIn())
        var delivered: [AlertEvent] = []
        for second in 0..<120 {
            let emit: (RoutedEvent) throws -> Void = { if $0.event.kind == .delivered { delivered.append($0.event) } }
            try pipeline.ingest(F.batch([(Double(second) + 0.5, 1)]), emit: emit)
            try pipeline.advance(to: F.t0 + .seconds(Int64(second + 1)), emit: emit)
        }
        #expect(delivered.map(\.attempt) == [0, 1, 2, 3], "\(delivered.map(\.attempt))")
        let messages = delivered.map { $0.content.message ?? "" }
        // Heard from 0.5 s on: delivered once it dwelt 20 s, then reminded every 30 s; the list
        // of three comes round again at the third reminder.
        #expect(
            messages == [
                "Waiting 20s (delivery 1)", "Still there after 50s", "Someone please go: 1m20s", "Waiting 1m50s (delivery 4)",
            ])
        #expect(delivered.allSatisfy { $0.content.title == "\($0.beacon) waits" }, "\(delivered.map(\.content.title))")
    }
}
