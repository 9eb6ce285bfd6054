import BeaconCore
import Dispatch
import Synchronization

/// Runs a ``SimulationEngine`` on a thread of its own, a few batches ahead of the consumer: on a
/// machine with two cores the radio model of the next batches is computed while the pipeline
/// ranges and decides the current one (the simulator is about a third of the 1,000-beacon day's
/// work, see BENCHMARKS.md).
///
/// ```swift
/// try SimulationPrefetcher.run(engine: engine, from: scenario.start, until: scenario.end,
///                              span: .seconds(1), maxPackets: 4096) { batches in
///     while try batches.next({ batch, virtualTime, statistics in try pipeline.ingest(batch) }) {}
/// }
/// ```
///
/// The producer is a thread of its own, not a Dispatch or concurrency pool worker: a consumer
/// that blocks waiting for a batch can never hold the thread the producer would need.
///
/// The batches, their order and their bytes are exactly those of the engine driven directly
/// with the same horizons: one producer fills them, in order, and the consumer takes them in
/// that order. After start-up nothing is allocated per batch: `depth` batches are filled and
/// lent in turn (a consumer that keeps a copy makes the producer's next fill copy on write).
/// Only its `run(engine:from:until:span:maxPackets:depth:_:)` creates one, so the producer always
/// stops and is joined before it returns, whether the body finishes, throws or is cancelled.
public final class SimulationPrefetcher: @unchecked Sendable {
    /// One filled batch and where the engine stood after filling it.
    private struct Slot {
        var batch: PacketBatch
        var virtualTime = Timestamp.epoch
        var statistics = SimulationStatistics()
        var isLast = false
    }

    /// The engine, moved to the producer at start (only the producer touches it afterwards).
    private final class EngineBox: @unchecked Sendable {
        var engine: SimulationEngine
        init(_ engine: SimulationEngine) { self.engine = engine }
    }

    /// Who waits for whom, under one lock. `filled` counts the slots filled and not yet given
    /// back by the consumer.
    private struct Handoff {
        var filled = 0
        var producerAsleep = false
        var consumerAsleep = false
        var stopping = false
    }

    // The ring of slots: the producer fills slot k mod depth only while fewer than `depth` are
    // filled, and the consumer reads a slot only once it is counted filled; the lock orders every
    // access, so the slots themselves need none. A side that must wait sleeps on its semaphore,
    // and the other wakes it only once half the ring is ready (free for the producer, filled for
    // the consumer): a wake-up is a system call, and one per batch cost more than the batch.
    private let slots: UnsafeMutablePointer<Slot>
    private let depth: Int
    private let handoff = Mutex(Handoff())
    private let producerWake = DispatchSemaphore(value: 0)
    private let consumerWake = DispatchSemaphore(value: 0)
    private let producerDone = DispatchSemaphore(value: 0)
    // The consumer's own state.
    private var consumed = 0
    private var sawLast = false
    private var joined = false

    private init(maxPackets: Int, depth: Int) {
        self.depth = depth
        slots = .allocate(capacity: depth)
        for index in 0..<depth {
            (slots + index).initialize(
                to: Slot(batch: PacketBatch(byteCapacity: maxPackets * 64, packetCapacity: maxPackets + 4)))
        }
    }

    deinit {
        slots.deinitialize(count: depth)
        slots.deallocate()
    }

    /// Runs `body` with batches of `engine` filled ahead on another thread.
    ///
    /// Each batch is the engine's next span from `start`, as
    /// ``SimulationEngine/fillNextSpan(_:horizon:span:end:maxPackets:)`` fills it (what
    /// ``Simulation`` does). At most `depth` batches are filled ahead. The producer is stopped
    /// and joined before this returns.
    public static func run<R>(
        engine: consuming SimulationEngine, from start: Timestamp, until end: Timestamp, span: Duration,
        maxPackets: Int, depth: Int = 8, _ body: (SimulationPrefetcher) throws -> R
    ) rethrows -> R {
        let prefetcher = SimulationPrefetcher(maxPackets: maxPackets, depth: max(2, depth))
        prefetcher.start(EngineBox(engine), from: start, until: end, span: span, maxPackets: maxPackets)
        defer { prefetcher.stop() }
        return try body(prefetcher)
    }

    /// The same for an asynchronous body (a source's `run`). Waiting for a batch blocks the calling thread until the producer — a thread of its
    /// own, never one of the concurrency pool's — has filled it, which it always does.
    public static func run<R>(
        engine: consuming SimulationEngine, from start: Timestamp, until end: Timestamp, span: Duration,
        maxPackets: Int, depth: Int = 8, _ body: (SimulationPrefetcher) async throws -> R
    ) async rethrows -> R {
        let prefetcher = SimulationPrefetcher(maxPackets: maxPackets, depth: max(2, depth))
        prefetcher.start(EngineBox(engine), from: start, until: end, span: span, maxPackets: maxPackets)
        defer { prefetcher.stop() }
        return try await body(prefetcher)
    }

    /// Calls `body` with the next batch (possibly empty), the engine's virtual time after it and
    /// its statistics then; false, without calling `body`, once the run's last batch has been
    /// taken. The batch is lent for the call only.
    public func next(
        _ body: (borrowing PacketBatch, Timestamp, SimulationStatistics) throws -> Void
    ) rethrows -> Bool {
        guard let slot = take() else { return false }
        defer { giveBack() }
        try body(slot.pointee.batch, slot.pointee.virtualTime, slot.pointee.statistics)
        return true
    }

    /// The same as the synchronous `next(_:)`, for an asynchronous body (a source's `deliver`).
    public func next(
        _ body: (borrowing PacketBatch, Timestamp, SimulationStatistics) async throws -> Void
    ) async rethrows -> Bool {
        guard let slot = take() else { return false }
        defer { giveBack() }
        try await body(slot.pointee.batch, slot.pointee.virtualTime, slot.pointee.statistics)
        return true
    }

    /// The next filled slot, waiting for it if need be; nil after the last.
    private func take() -> UnsafeMutablePointer<Slot>? {
        guard !sawLast else { return nil }
        while handoff.withLock({ state in
            guard state.filled == 0 else { return false }
            state.consumerAsleep = true
            return true
        }) {
            consumerWake.wait()
        }
        let slot = slots + consumed % depth
        consumed += 1
        if slot.pointee.isLast { sawLast = true }
        return slot
    }

    /// Gives the slot just taken back to the producer.
    private func giveBack() {
        let wake = handoff.withLock { state in
            state.filled -= 1
            guard state.producerAsleep, state.filled <= depth / 2 else { return false }
            state.producerAsleep = false
            return true
        }
        if wake { producerWake.signal() }
    }

    private func start(_ box: EngineBox, from start: Timestamp, until end: Timestamp, span: Duration, maxPackets: Int) {
        DedicatedThread.start { [self] in
            var horizon = start
            var index = 0
            var more = true
            while more {
                switch handoff.withLock({ state -> ProducerTurn in
                    if state.stopping { return .stop }
                    guard state.filled == depth else { return .fill }
                    state.producerAsleep = true
                    return .sleep
                }) {
                case .stop:
                    more = false
                    continue
                case .sleep:
                    producerWake.wait()
                    continue
                case .fill: break
                }
                let slot = slots + index % depth
                more = box.engine.fillNextSpan(
                    &slot.pointee.batch, horizon: &horizon, span: span, end: end, maxPackets: maxPackets)
                slot.pointee.virtualTime = box.engine.virtualTime
                slot.pointee.statistics = box.engine.statistics
                slot.pointee.isLast = !more
                index += 1
                let wake = handoff.withLock { state in
                    state.filled += 1
                    guard state.consumerAsleep, state.filled >= (depth + 1) / 2 || !more else { return false }
                    state.consumerAsleep = false
                    return true
                }
                if wake { consumerWake.signal() }
            }
            producerDone.signal()
        }
    }

    private enum ProducerTurn { case fill, sleep, stop }

    /// Stops the producer (it finishes the batch it is filling) and waits for it to end.
    private func stop() {
        guard !joined else { return }
        joined = true
        let wake = handoff.withLock { state in
            state.stopping = true
            guard state.producerAsleep else { return false }
            state.producerAsleep = false
            return true
        }
        if wake { producerWake.signal() }
        producerDone.wait()
    }
}
