import BeaconCore

/// An ``AlertEngine`` bound to its store, committing each output as soon as it is made: for a
/// caller with nothing else to write in the same transaction (a service running the engine
/// alone, the crash harness, tests). The pipeline does not use it: it gathers the engine's
/// outputs and the strategies' state into one transaction per input.
///
/// Each call returns the events only once their changes are stored. If the store refuses a
/// batch, the call throws ``AlertEngineError/storeFailed(_:)`` and the engine goes back to what
/// is stored, so nothing of the refused step is kept.
public struct StoredAlertEngine: Sendable {
    /// The engine; its state mirrors the store's.
    public private(set) var engine: AlertEngine
    /// Where each output is committed.
    public let store: any AlertStateStore
    /// The buffers each firing is made in (kept, so that a firing allocates nothing once they
    /// have grown: its events are returned in the kept buffer itself, which the next firing
    /// reuses if the caller has let go of it, and replaces if not).
    private var scratch = AlertEngineOutput()

    /// Creates an engine on the state `store` holds.
    public init(configuration: AlertEngineConfiguration, store: any AlertStateStore) throws(AlertEngineError) {
        self.engine = try AlertEngine(configuration: configuration, loadingFrom: store)
        self.store = store
    }

    /// The rules and the pending cap.
    public var configuration: AlertEngineConfiguration { engine.configuration }
    /// The current (stored) state.
    public var state: AlertEngineState { engine.state }
    /// See ``AlertEngine/nextDeadline``.
    public var nextDeadline: Timestamp? { engine.nextDeadline }
    /// See ``AlertEngine/pending``.
    public var pending: [PendingAlert] { engine.pending }

    /// See ``AlertEngine/fire(_:now:world:)``; returns the events once stored.
    public mutating func fire(
        _ firing: StrategyFiring, now: Timestamp, world: any AlertWorld = EmptyAlertWorld()
    ) throws(AlertEngineError) -> [RoutedEvent] {
        // Into the kept buffers, emptied first: still shared with the array the last firing
        // returned only when its caller kept that (it is then replaced, the one allocation).
        scratch.changes.removeAll(keepingCapacity: true)
        scratch.events.removeAll(keepingCapacity: true)
        try engine.fire(firing, now: now, world: world, into: &scratch)
        return try commit(scratch)
    }

    /// See ``AlertEngine/handle(_:now:)-(EngineFact,_)``; returns the events once stored.
    public mutating func handle(_ fact: EngineFact, now: Timestamp) throws(AlertEngineError) -> [RoutedEvent] {
        try commit(engine.handle(fact, now: now))
    }

    /// See ``AlertEngine/handle(_:now:)-(RegionEvent,_)``; returns the events once stored.
    public mutating func handle(_ event: RegionEvent, now: Timestamp) throws(AlertEngineError) -> [RoutedEvent] {
        try commit(engine.handle(event, now: now))
    }

    /// See ``AlertEngine/advance(to:world:)``; returns the events once stored.
    public mutating func advance(
        to now: Timestamp, world: any AlertWorld = EmptyAlertWorld()
    ) throws(AlertEngineError) -> [RoutedEvent] {
        try commit(engine.advance(to: now, world: world))
    }

    /// See ``AlertEngine/handle(_:now:)-(AlertAnswerRequest,_)``; returns the events once stored
    /// and what the request did.
    /// - Throws: ``AlertAnswerError`` (nothing changed) or ``AlertEngineError/storeFailed(_:)``.
    public mutating func handle(_ request: AlertAnswerRequest, now: Timestamp) throws -> ([RoutedEvent], AlertAnswerOutcome) {
        let (output, outcome) = try engine.handle(request, now: now)
        return (try commit(output), outcome)
    }

    private mutating func commit(_ output: AlertEngineOutput) throws(AlertEngineError) -> [RoutedEvent] {
        do {
            return try store.commit(output)
        } catch {
            // Back to what is stored: the refused step leaves nothing behind.
            if let reloaded = try? AlertEngine(configuration: engine.configuration, loadingFrom: store) {
                engine = reloaded
            }
            throw .storeFailed(String(describing: error))
        }
    }
}
