import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import BeaconStrategies
import BeaconStrategyKit
import Testing

@Suite("PipelineRunner: the one owner of a pipeline")
struct PipelineRunnerTests {
    typealias F = PipelineFixtures

    static let batches = [
        F.batch([(0.5, 1), (0.7, 2)]),
        F.batch([(1.5, 1)]),
        F.batch([(2.5, 1), (2.6, 2)]),
    ]

    static func pipeline(delay: Duration? = nil) throws -> AlertPipeline {
        try AlertPipeline(alerts: [F.enterAlert(delay: delay)], registry: .builtIn())
    }

    @Test("A source through the runner gives exactly the events of feeding the pipeline by hand")
    func sameEventsAsDirect() async throws {
        let direct = try Self.pipeline()
        var expected: [String] = []
        for batch in Self.batches { try direct.ingest(batch) { expected.append($0.event.jsonLine) } }
        try direct.advance(to: F.t0 + .milliseconds(2600) + .seconds(1)) { expected.append($0.event.jsonLine) }

        var events: [String] = []
        let last = try await PipelineRunner.run(source: ScriptedSource(batches: Self.batches), pipeline: Self.pipeline()) {
            events.append($0.event.jsonLine)
        }
        #expect(last == F.t0 + .milliseconds(2600))
        #expect(expected.count == 4) // created and delivered, for each of the two beacons
        #expect(events == expected)
    }

    @Test("The snapshot tells what the run processed")
    func snapshotAfterRun() async throws {
        let runner = PipelineRunner()
        let pipeline = try Self.pipeline()
        try await runner.run(pipeline, emit: { _ in }) {
            try await runner.feed(from: ScriptedSource(batches: Self.batches))
        }
        let snapshot = runner.snapshot
        #expect(snapshot.statistics.packets == 5)
        #expect(snapshot.statistics.sightings == 5)
        #expect(snapshot.trackedBeacons == 2)
        #expect(snapshot.alertIDs == ["welcome"])
        #expect(snapshot.latestTime == F.t0 + .milliseconds(3600))
    }

    @Test("A posted event is handled at the time asked and answered with what it cancelled")
    func postedEvent() async throws {
        let runner = PipelineRunner()
        let closing = F.t0 + .seconds(30)
        var kinds: [AlertEvent.Kind] = []
        let receipt = try await runner.run(try Self.pipeline(delay: .seconds(60)), emit: { kinds.append($0.event.kind) }) {
            try await runner.send(Self.batches[0])
            try await runner.advance(to: F.t0 + .seconds(2)) // the cycle ends: both beacons' alerts are created
            return try await runner.post(.external(name: "closing", beacon: nil), at: .at(closing))
        }
        #expect(receipt.time == closing)
        #expect(receipt.events.map(\.kind) == [.cancelled, .cancelled])
        #expect(kinds == [.created, .created, .cancelled, .cancelled])
    }

    @Test("A post without a time happens at the pipeline's latest time")
    func postAtPipelineTime() async throws {
        let runner = PipelineRunner()
        let receipt = try await runner.run(try Self.pipeline(), emit: { _ in }) {
            try await runner.send(Self.batches[0])
            return try await runner.post(.external(name: "closing", beacon: nil), at: .pipelineTime(orElse: .epoch))
        }
        #expect(receipt.time == F.t0 + .milliseconds(700))
    }

    @Test("Restarted, a post or an answer before the first input happens where the saved state ends, not at the fallback")
    func postBeforeFirstInputAfterRestart() async throws {
        let store = InMemoryAlertStateStore(keepsStrategyState: true) // as the daemon's state file does
        let first = try AlertPipeline(alerts: [F.enterAlert(delay: .seconds(60))], registry: .builtIn(), store: store)
        for batch in Self.batches { try first.ingest(batch) { _ in } } // both alerts created, due a minute later
        try first.advance(to: F.t0 + .seconds(4)) { _ in }
        let savedThrough = try #require(first.decidedThrough)

        // The restarted pipeline has seen no input yet; the fallback is a wall clock far ahead.
        let restarted = try AlertPipeline(alerts: [F.enterAlert(delay: .seconds(60))], registry: .builtIn(), store: store)
        #expect(restarted.latestTime == nil && restarted.decidedThrough == savedThrough)
        let runner = PipelineRunner()
        var kinds: [AlertEvent.Kind] = []
        let wallClock = F.t0 + .seconds(86_400 * 365)
        let receipt = try await runner.run(restarted, emit: { kinds.append($0.event.kind) }) {
            try await runner.post(.external(name: "opening", beacon: nil), at: .pipelineTime(orElse: wallClock))
        }
        #expect(receipt.time == savedThrough)
        #expect(!kinds.contains(.delivered), "the pending alerts were delivered a year early: \(kinds)")
    }

    @Test("An invalid alert set is refused with its reason and the alerts in force stay")
    func invalidAlertSet() async throws {
        let runner = PipelineRunner()
        let refusal = try await runner.run(try Self.pipeline(), emit: { _ in }) { () -> String in
            do {
                try await runner.replaceAlerts([PipelineAlert(id: "odd", strategy: "no-such-strategy")], registry: .builtIn())
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal.contains("alert 'odd'"))
        #expect(refusal.contains("no-such-strategy"))
        #expect(runner.snapshot.alertIDs == ["welcome"])
    }

    @Test("A valid alert set replaces the alerts in force")
    func validAlertSet() async throws {
        let runner = PipelineRunner()
        try await runner.run(try Self.pipeline(), emit: { _ in }) {
            try await runner.replaceAlerts([try F.enterAlert(id: "hello"), try F.enterAlert(id: "again")], registry: .builtIn())
        }
        #expect(runner.snapshot.alertIDs == ["hello", "again"])
    }

    @Test("After the run has stopped, inputs are refused instead of waiting forever")
    func stoppedRunnerRefuses() async throws {
        let runner = PipelineRunner()
        try await runner.run(try Self.pipeline(), emit: { _ in }) {}
        await #expect(throws: PipelineError.self) {
            _ = try await runner.post(.external(name: "closing", beacon: nil), at: .at(F.t0))
        }
        await #expect(throws: PipelineError.self) { try await runner.send(Self.batches[0]) }
    }

    struct SourceFailure: Error {}

    /// A source that delivers one batch, then fails.
    struct FailingSource: AdvertisementSource {
        var name: String { "failing" }
        func run(deliver: (borrowing PacketBatch) async throws -> Void) async throws {
            try await deliver(PipelineRunnerTests.batches[0])
            throw SourceFailure()
        }
    }

    @Test("A source's failure ends the run with that error, after what it sent was handled")
    func sourceFailure() async throws {
        let runner = PipelineRunner()
        await #expect(throws: SourceFailure.self) {
            try await runner.run(try Self.pipeline(), emit: { _ in }) {
                try await runner.feed(from: FailingSource())
            }
        }
        #expect(runner.snapshot.statistics.packets == 2)
    }
}
