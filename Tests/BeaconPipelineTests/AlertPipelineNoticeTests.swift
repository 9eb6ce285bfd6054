import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import BeaconStrategies
import BeaconStrategyKit
import Synchronization
import Testing

/// Notices of the daemon's own (a gateway offline or back) go to the store in the same write as
/// the input's alert state and events: one door.
@Suite("AlertPipeline: notices through the alerts' commit")
struct AlertPipelineNoticeTests {
    private typealias F = PipelineFixtures

    /// The engine's state in memory, and a record of every write's events and notices; a write
    /// can be refused once.
    final class RecordingStore: AlertStateStore {
        struct Write: Equatable {
            var events: [String]
            var notices: [String]
        }

        struct Refused: Error {}

        let inner = InMemoryAlertStateStore()
        private let record = Mutex<(writes: [Write], failNext: Bool)>(([], false))
        var writes: [Write] { record.withLock { $0.writes } }
        func failNextApply() { record.withLock { $0.failNext = true } }

        func load() throws -> AlertEngineState { try inner.load() }
        func apply(_ changes: [AlertStateChange]) throws { try inner.apply(changes) }
        func apply(_ changes: [AlertStateChange], emitting events: [RoutedEvent]) throws {
            try apply(changes, emitting: events, notices: [])
        }
        func apply(_ changes: [AlertStateChange], emitting events: [RoutedEvent], notices: [OutboundNotice]) throws {
            let refused = record.withLock { record in
                defer { record.failNext = false }
                return record.failNext
            }
            if refused { throw Refused() }
            try inner.apply(changes)
            record.withLock {
                $0.writes.append(Write(events: events.map(\.event.kind.rawValue), notices: notices.map(\.key)))
            }
        }
    }

    /// The keys of the notices a pipeline reported written, in order.
    final class Committed {
        var keys: [String] = []
    }

    /// A pipeline of the welcome alert over a recording store, its written notices recorded.
    static func pipeline() throws -> (RecordingStore, AlertPipeline, Committed) {
        let store = RecordingStore()
        let pipeline = try AlertPipeline(alerts: [F.enterAlert()], registry: .builtIn(), store: store)
        let committed = Committed()
        pipeline.noticesCommitted = { committed.keys += $0.map(\.key) }
        return (store, pipeline, committed)
    }

    static let notice = OutboundNotice(key: "gateway|a|gatewayOffline|1", body: #"{"event":"gatewayOffline"}"#, sinks: ["log"])

    @Test("a notice posted in the cycle that fires an alert is written in the same write as the alert's events")
    func sameWrite() throws {
        let (store, pipeline, committed) = try Self.pipeline()
        var posted = false
        pipeline.cycleObserver = { [unowned pipeline] _ in
            guard !posted else { return }
            posted = true
            pipeline.post([Self.notice])
        }
        try pipeline.ingest(F.batch([(0.5, 1)])) { _ in }
        #expect(store.writes.isEmpty && committed.keys.isEmpty) // no cycle closed, nothing written
        var events: [String] = []
        try pipeline.ingest(F.batch([(1.5, 1)])) { events.append($0.event.kind.rawValue) }
        #expect(events == ["created", "delivered"])
        #expect(store.writes == [RecordingStore.Write(events: ["created", "delivered"], notices: [Self.notice.key])])
        #expect(committed.keys == [Self.notice.key])
    }

    @Test("a refused write keeps the notice for the next input's write; it is reported written once")
    func refusedWriteKeepsTheNotice() throws {
        let (store, pipeline, committed) = try Self.pipeline()
        try pipeline.ingest(F.batch([(0.5, 1)])) { _ in }
        pipeline.post([Self.notice])
        store.failNextApply()
        #expect(throws: PipelineError.self) { try pipeline.ingest(F.batch([(1.5, 1)])) { _ in } }
        #expect(store.writes.isEmpty && committed.keys.isEmpty)
        // The next input writes it (with whatever that input stores), and says so once.
        try pipeline.ingest(F.batch([(2.5, 1)])) { _ in }
        try pipeline.advance(to: F.t0 + .seconds(4)) { _ in }
        #expect(store.writes.flatMap(\.notices) == [Self.notice.key])
        #expect(store.writes.first?.notices == [Self.notice.key])
        #expect(committed.keys == [Self.notice.key])
    }
}
