import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import BeaconStrategies
import BeaconStrategyKit
import Testing

/// The pipeline gathers what the engine returns for one input (and the strategies' state) and
/// commits it in one write, before any event leaves.
@Suite("AlertPipeline: one commit per input")
struct AlertPipelineCommitTests {
    private typealias F = PipelineFixtures

    /// Feeds beacon 1 at 0.5 s and 1.5 s, then time to 3 s; returns the events emitted.
    private func feed(_ pipeline: AlertPipeline) throws -> [String] {
        var events: [String] = []
        try pipeline.ingest(F.batch([(0.5, 1)])) { events.append("\($0.event.kind.rawValue) \($0.event.alertID)") }
        try pipeline.ingest(F.batch([(1.5, 1)])) { events.append("\($0.event.kind.rawValue) \($0.event.alertID)") }
        try pipeline.advance(to: F.t0 + .seconds(3)) { events.append("\($0.event.kind.rawValue) \($0.event.alertID)") }
        return events
    }

    @Test("an input's engine changes, events and strategy state are stored in one batch")
    func oneBatchPerInput() throws {
        let store = InMemoryAlertStateStore(keepsStrategyState: true)
        let pipeline = try AlertPipeline(alerts: [F.enterAlert()], registry: .builtIn(), store: store)
        let events = try feed(pipeline)
        #expect(events == ["created welcome", "delivered welcome"])
        // Created and delivered at once: one history, no pending, the strategy's state saved.
        #expect(store.state.history.count == 1)
        #expect(store.state.pending.isEmpty)
        #expect(!store.state.strategyStates.isEmpty)
        // Three inputs, and only those that changed something wrote (at most one batch each).
        #expect(store.batchCount <= 3)
    }

    @Test("a refused write emits nothing and keeps nothing; the alert comes when the store accepts again")
    func refusedWrite() throws {
        let store = InMemoryAlertStateStore(keepsStrategyState: true)
        let pipeline = try AlertPipeline(alerts: [F.enterAlert()], registry: .builtIn(), store: store)
        var events: [String] = []
        // The first input (a sighting, no cycle closed yet) stores nothing.
        try pipeline.ingest(F.batch([(0.5, 1)])) { events.append($0.event.kind.rawValue) }
        // The input that closes the first cycle fires the alert; its write is refused.
        store.failNextApply()
        #expect {
            try pipeline.ingest(F.batch([(1.5, 1)])) { events.append($0.event.kind.rawValue) }
        } throws: { error in
            guard case .engine(let reason) = error as? PipelineError else { return false }
            return reason.hasPrefix("the state store refused the changes")
        }
        #expect(events.isEmpty)
        #expect(store.state.history.isEmpty && store.state.pending.isEmpty && store.state.strategyStates.isEmpty)

        // The store accepts again: the strategies start from what is stored (nothing), so the
        // beacon, still there, enters again and the alert is created and delivered, once.
        try pipeline.ingest(F.batch([(2.5, 1)])) { events.append($0.event.kind.rawValue) }
        try pipeline.advance(to: F.t0 + .seconds(4)) { events.append($0.event.kind.rawValue) }
        #expect(events == ["created", "delivered"])
        #expect(store.state.history.count == 1)
    }
}
