import BeaconAlertEngine
import BeaconCore
import BeaconSite
import BeaconSiteReport
import BeaconStrategyKit
import Synchronization

/// The one owner of a running ``AlertPipeline``: a task that takes the pipeline's inputs —
/// batches, ticks, posted events, new alert sets — from a bounded ``PipelineInbox``, one at a
/// time, each decided and stored before the next; everyone else reads a ``PipelineSnapshot``.
///
/// Any number of tasks send: a source through ``feed(from:closingAfter:)``, a clock through
/// ``advance(to:)``, the control endpoint through ``post(_:at:)``, remote configuration through
/// ``replaceAlerts(_:registry:)``. One task calls ``run(_:emit:presence:)`` with the pipeline,
/// which never leaves that task. `replay`, `simulate` and tests use
/// `run(source:pipeline:closingAfter:emit:)`, the same loop with the source as the only sender.
public final class PipelineRunner: Sendable {
    /// Where inputs wait for the pipeline.
    public let inbox: PipelineInbox<PipelineInput>
    private let published = Mutex(PipelineSnapshot())
    /// The time of the last packet fed so far (for ``PipelineInput/sourceEnded(closingAfter:)``).
    private let lastPacket = Mutex<Timestamp?>(nil)
    /// The latest inspection answered, and the final one once the run has ended.
    private let lastInspection = Mutex<PipelineInspection?>(nil)

    /// Told about each gateway report a site hub's pipeline refuses (for the log).
    private let refusedReport: @Sendable (ReportRefusal) -> Void

    /// Creates a runner whose inbox holds at most `capacity` waiting inputs.
    /// - Parameters:
    ///   - capacity: how many inputs may wait.
    ///   - refusedReport: told about each gateway report a site hub refuses (counted already).
    public init(capacity: Int = 16, refusedReport: @escaping @Sendable (ReportRefusal) -> Void = { _ in }) {
        inbox = PipelineInbox(capacity: capacity)
        self.refusedReport = refusedReport
    }

    /// The pipeline as of its latest input.
    public var snapshot: PipelineSnapshot { published.withLock { $0 } }

    // MARK: The owner

    /// Runs `pipeline` on the inbox's inputs until the inbox is finished (``finish()``) and what
    /// waits in it is handled, or the task is cancelled; every event goes to `emit`, in order,
    /// after its input is stored.
    ///
    /// A posted fact or an alert set that fails is answered with its error and the run goes on;
    /// a batch or a tick that cannot be stored ends the run with that error (the input is as if
    /// it never happened: nothing of it is stored or emitted).
    /// - Parameters:
    ///   - pipeline: the pipeline this task owns from now on.
    ///   - emit: receives each event, in order, once its input is stored.
    ///   - presence: when given, receives the beacons' presence changes after each input.
    public func run(
        _ pipeline: AlertPipeline, emit: (RoutedEvent) throws -> Void,
        presence: (([BeaconPresence]) -> Void)? = nil
    ) async throws {
        defer {
            // What will not be handled is answered, so that no sender waits forever.
            inbox.finish()
            for input in inbox.removeAll() { input.fail(PipelineError.stopped) }
            // What the pipeline ended with stays visible (a status page after a simulation).
            let final = pipeline.inspect()
            lastInspection.withLock { $0 = final }
        }
        pipeline.recordsPresence = pipeline.recordsPresence || presence != nil
        publish(pipeline, alertsChanged: true)
        while let input = await inbox.next() {
            if case .inspect = input {
                // A look changes nothing: no presence to take, nothing to publish.
                try handle(input, pipeline: pipeline, emit: emit)
                continue
            }
            try handle(input, pipeline: pipeline, emit: emit)
            if let presence {
                let changes = pipeline.takePresenceChanges()
                if !changes.isEmpty { presence(changes) }
            }
            publish(pipeline, alertsChanged: input.mayChangeAlerts)
        }
    }

    /// Handles one input.
    private func handle(
        _ input: consuming PipelineInput, pipeline: AlertPipeline,
        emit: (RoutedEvent) throws -> Void
    ) throws {
        switch input {
        case .packets(let batch):
            try pipeline.ingest(batch, emit: emit)
        case .reports(let reports):
            try pipeline.ingest(reports: reports, refused: refusedReport, emit: emit)
        case .advance(let time):
            try pipeline.advance(to: time, emit: emit)
        case .sourceEnded(let closingAfter):
            if let last = lastPacket.withLock({ $0 }) ?? pipeline.latestTime {
                try pipeline.advance(to: last + closingAfter + pipeline.siteLateness, emit: emit)
            }
        case .post(let fact, let time, let reply):
            let at =
                switch time {
                case .at(let time): time
                case .pipelineTime(let fallback): pipeline.latestTime ?? pipeline.decidedThrough ?? fallback
                }
            var events: [AlertEvent] = []
            reply.resume(
                returning: Result {
                    try pipeline.post(fact, now: at) { routed in
                        events.append(routed.event)
                        try emit(routed)
                    }
                    return PipelinePostReceipt(time: at, events: events)
                })
        case .answer(let request, let time, let reply):
            let at =
                switch time {
                case .at(let time): time
                case .pipelineTime(let fallback): pipeline.latestTime ?? pipeline.decidedThrough ?? fallback
                }
            reply.resume(returning: Result { try pipeline.answer(request, now: at, emit: emit) })
        case .replaceAlerts(let alerts, let registry, let reply):
            reply.resume(
                returning: Result { () throws(PipelineError) in try pipeline.replaceAlerts(alerts, registry: registry) }
                    .mapError { $0 as any Error })
        case .shadow(let request, let reply):
            reply.resume(returning: Result { try request.apply(to: pipeline) })
        case .inspect(let reply):
            let inspection = pipeline.inspect()
            lastInspection.withLock { $0 = inspection }
            reply.resume(returning: .success(inspection))
        }
    }

    private func publish(_ pipeline: AlertPipeline, alertsChanged: Bool) {
        let statistics = pipeline.statistics
        let tracked = pipeline.trackedBeacons
        let latest = pipeline.latestTime
        let alertIDs = alertsChanged ? pipeline.alertsInForce.map(\.id) : nil
        published.withLock { snapshot in
            snapshot.statistics = statistics
            snapshot.trackedBeacons = tracked
            snapshot.latestTime = latest
            if let alertIDs { snapshot.alertIDs = alertIDs }
            snapshot.inputs += 1
        }
    }

    // MARK: Senders

    /// Sends a copy of `batch` (waiting while the inbox is full).
    public func send(_ batch: borrowing PacketBatch) async throws {
        if let time = batch.records.last?.timestamp { lastPacket.withLock { $0 = time } }
        try await inbox.send(.packets(copy batch))
    }

    /// Sends gateways' reports (a site hub; waiting while the inbox is full).
    public func send(reports: [GatewayReportMessage]) async throws {
        try await inbox.send(.reports(reports))
    }

    /// Runs `source` to its end, sending each batch; then sends
    /// ``PipelineInput/sourceEnded(closingAfter:)``, so that the run closes the last cycle
    /// `closingAfter` the last packet.
    /// - Returns: the time of the last packet, if any.
    @discardableResult
    public func feed(from source: some AdvertisementSource, closingAfter: Duration = .seconds(1)) async throws -> Timestamp? {
        try await source.run { batch in try await send(batch) }
        try await inbox.send(.sourceEnded(closingAfter: closingAfter))
        return lastPacket.withLock { $0 }
    }

    /// Ends every cycle up to `time` and delivers what falls due (a live source's tick).
    public func advance(to time: Timestamp) async throws {
        try await inbox.send(.advance(to: time))
    }

    /// Posts a fact: what falls due before its time is delivered first, then the pending alerts
    /// its event cancels are cancelled.
    public func post(_ fact: EngineFact, at time: PipelineInput.PostTime) async throws -> PipelinePostReceipt {
        let reply = OneShot<Result<PipelinePostReceipt, any Error>>()
        try await inbox.send(.post(fact, at: time, reply: reply))
        return try await reply.value.get()
    }

    /// Hands the engine an answer to a delivered alert (or a suppression to lift) at `time`.
    /// - Throws: the `AlertAnswerError` that says why it was not taken, or what
    ///   stopped the pipeline.
    public func answer(_ request: AlertAnswerRequest, at time: PipelineInput.PostTime) async throws -> AlertAnswerOutcome {
        let reply = OneShot<Result<AlertAnswerOutcome, any Error>>()
        try await inbox.send(.answer(request, at: time, reply: reply))
        return try await reply.value.get()
    }

    /// Replaces the alerts (validated first; nothing changes if the set is invalid).
    /// - Throws: the ``PipelineError`` that makes the set invalid.
    public func replaceAlerts(_ alerts: [PipelineAlert], registry: StrategyRegistry) async throws {
        let reply = OneShot<Result<Void, any Error>>()
        try await inbox.send(.replaceAlerts(alerts, registry, reply: reply))
        try await reply.value.get()
    }

    /// Starts, promotes or stops the shadow (see ``ShadowRequest``).
    /// - Throws: the ``PipelineError`` that makes a candidate invalid, or ``ShadowRequest/Refusal``.
    @discardableResult
    public func shadow(_ request: ShadowRequest) async throws -> ShadowOutcome {
        let reply = OneShot<Result<ShadowOutcome, any Error>>()
        try await inbox.send(.shadow(request, reply: reply))
        return try await reply.value.get()
    }

    /// A look at the pipeline's beacons, strategies and waiting alerts, taken between two inputs;
    /// once the run has ended, the last one taken (updated at the end), if any was.
    /// - Throws: ``PipelineError/stopped`` when the run was never started and will not be.
    public func inspect() async throws -> PipelineInspection {
        if inbox.isFinished, let last = lastInspection.withLock({ $0 }) { return last }
        let reply = OneShot<Result<PipelineInspection, any Error>>()
        do {
            try await inbox.send(.inspect(reply: reply))
            return try await reply.value.get()
        } catch {
            if let last = lastInspection.withLock({ $0 }) { return last }
            throw error
        }
    }

    /// Takes no more inputs: the run handles what is waiting, then returns.
    public func finish() {
        inbox.finish()
    }

    // MARK: One source, to its end

    /// Drives `source` to its end through `pipeline` (replay, simulation, tests): the source
    /// feeds the inbox from a child task while this task runs the pipeline; at the end the last
    /// ranging cycle is closed `closingAfter` the last packet, so that what the capture
    /// completed is evaluated.
    /// - Returns: the time of the last packet, if any.
    @discardableResult
    public static func run(
        source: some AdvertisementSource, pipeline: AlertPipeline,
        closingAfter: Duration = .seconds(1), capacity: Int = 4,
        emit: (RoutedEvent) throws -> Void
    ) async throws -> Timestamp? {
        let runner = PipelineRunner(capacity: capacity)
        return try await runner.run(pipeline, emit: emit) {
            try await runner.feed(from: source, closingAfter: closingAfter)
        }
    }

    /// Runs `pipeline` while `produce` sends inputs from a child task; returns what `produce`
    /// returns once the run has handled everything it sent (when `produce` returns, the inbox is
    /// finished). If the run fails, `produce` is cancelled; if `produce` fails, the run stops
    /// after what was sent and its error is thrown.
    @discardableResult
    public func run<Produced: Sendable>(
        _ pipeline: AlertPipeline, emit: (RoutedEvent) throws -> Void,
        presence: (([BeaconPresence]) -> Void)? = nil,
        producing produce: @escaping @Sendable () async throws -> Produced
    ) async throws -> Produced {
        try await withThrowingTaskGroup(of: Produced.self) { group in
            group.addTask {
                defer { self.finish() }
                return try await produce()
            }
            // Leaving by an error cancels the producer (and waits for it).
            try await run(pipeline, emit: emit, presence: presence)
            guard let produced = try await group.next() else { throw CancellationError() }
            return produced
        }
    }
}
