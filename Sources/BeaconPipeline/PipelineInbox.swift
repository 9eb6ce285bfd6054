import Synchronization

/// A bounded, multi-producer, single-consumer channel: the only way into a running pipeline.
///
/// ``send(_:)`` suspends while `capacity` inputs are waiting, so a source that outpaces the
/// pipeline is slowed down (its kernel buffer takes the slack) instead of growing memory without
/// bound. ``next()`` suspends while the inbox is empty. After ``finish()`` the waiting inputs are
/// still handed out, then ``next()`` returns `nil` and ``send(_:)`` throws
/// ``PipelineError/stopped``.
///
/// A producer cancelled while it waits for room gets `CancellationError` and its input is not
/// sent; the consumer cancelled while it waits gets `nil` (it has nothing to do but stop).
public final class PipelineInbox<Element: Sendable>: Sendable {
    private struct Waiter<Value> {
        let id: UInt64
        let continuation: CheckedContinuation<Value, any Error>
    }

    private struct State {
        var buffer: [Element] = []
        var head = 0
        var finished = false
        var nextID: UInt64 = 0
        var consumer: Waiter<Element?>?
        var producers: [(waiter: Waiter<Void>, element: Element)] = []

        var count: Int { buffer.count - head }

        /// The next input and, when taking it made room, the longest-waiting producer (whose
        /// input has moved into the buffer) to resume.
        mutating func takeNext() -> NextStep? {
            guard let element = popFirst() else { return nil }
            guard !producers.isEmpty else { return .element(element, nil) }
            let producer = producers.removeFirst()
            buffer.append(producer.element)
            return .element(element, producer.waiter.continuation)
        }

        mutating func popFirst() -> Element? {
            guard head < buffer.count else { return nil }
            let element = buffer[head]
            head += 1
            if head == buffer.count || head >= 64 {
                buffer.removeFirst(head)
                head = 0
            }
            return element
        }
    }

    private enum SendStep {
        case done, wait(UInt64), stopped, handOver(CheckedContinuation<Element?, any Error>)
    }

    private enum NextStep {
        case element(Element, CheckedContinuation<Void, any Error>?), end, wait(UInt64)
    }

    /// How many inputs may wait before ``send(_:)`` suspends.
    public let capacity: Int
    private let state: Mutex<State>

    /// Creates an inbox that holds at most `capacity` waiting inputs (at least 1).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        state = Mutex(State())
    }

    /// Whether ``finish()`` was called (no more inputs are taken).
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// Inputs waiting to be taken.
    public var waiting: Int { state.withLock { $0.count + $0.producers.count } }

    /// Sends `element`, waiting for room while the inbox is full.
    /// - Throws: ``PipelineError/stopped`` once the inbox is finished; `CancellationError` if the
    ///   calling task is cancelled while it waits (the element is then not sent).
    public func send(_ element: Element) async throws {
        let step: SendStep = state.withLock { state in
            if state.finished { return .stopped }
            if let consumer = state.consumer {
                state.consumer = nil
                return .handOver(consumer.continuation)
            }
            if state.count < capacity {
                state.buffer.append(element)
                return .done
            }
            defer { state.nextID += 1 }
            return .wait(state.nextID)
        }
        switch step {
        case .done:
            return
        case .stopped:
            throw PipelineError.stopped
        case .handOver(let consumer):
            consumer.resume(returning: element)
        case .wait(let id):
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let outcome: Result<Void, any Error>? = state.withLock { state in
                        if state.finished { return .failure(PipelineError.stopped) }
                        if Task.isCancelled { return .failure(CancellationError()) }
                        if state.count < capacity {
                            state.buffer.append(element)
                            return .success(())
                        }
                        state.producers.append((Waiter(id: id, continuation: continuation), element))
                        return nil
                    }
                    if let outcome { continuation.resume(with: outcome) }
                }
            } onCancel: {
                let waiter: Waiter<Void>? = state.withLock { state in
                    guard let index = state.producers.firstIndex(where: { $0.waiter.id == id }) else { return nil }
                    return state.producers.remove(at: index).waiter
                }
                waiter?.continuation.resume(throwing: CancellationError())
            }
        }
    }

    /// The next input, waiting while there is none; `nil` once the inbox is finished and empty,
    /// or when the calling task is cancelled.
    public func next() async -> Element? {
        let step: NextStep = state.withLock { state in
            if let next = state.takeNext() { return next }
            if state.finished { return .end }
            defer { state.nextID += 1 }
            return .wait(state.nextID)
        }
        switch step {
        case .element(let element, let producer):
            producer?.resume()
            return element
        case .end:
            return nil
        case .wait(let id):
            return try? await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Element?, any Error>) in
                    let now: NextStep = state.withLock { state in
                        if let next = state.takeNext() { return next }
                        if state.finished || Task.isCancelled { return .end }
                        state.consumer = Waiter(id: id, continuation: continuation)
                        return .wait(id)
                    }
                    switch now {
                    case .element(let element, let producer):
                        producer?.resume()
                        continuation.resume(returning: element)
                    case .end:
                        continuation.resume(returning: nil)
                    case .wait:
                        break // parked: a sender or finish() resumes it
                    }
                }
            } onCancel: {
                let consumer: Waiter<Element?>? = state.withLock { state in
                    guard state.consumer?.id == id else { return nil }
                    defer { state.consumer = nil }
                    return state.consumer
                }
                consumer?.continuation.resume(returning: nil)
            }
        }
    }

    /// Removes and returns what is waiting (after ``finish()``, to answer what will not be handled).
    public func removeAll() -> [Element] {
        state.withLock { state in
            var all: [Element] = []
            while let element = state.popFirst() { all.append(element) }
            all += state.producers.map(\.element)
            return all
        }
    }

    /// Takes no more inputs: waiting producers get ``PipelineError/stopped``; what is already in
    /// the inbox is still handed out by ``next()``, then it returns `nil`.
    public func finish() {
        let (consumer, producers): (Waiter<Element?>?, [Waiter<Void>]) = state.withLock { state in
            state.finished = true
            defer {
                state.consumer = nil
                state.producers.removeAll()
            }
            // With the consumer parked the buffer is empty: waking it with nil ends it.
            return (state.consumer, state.producers.map(\.waiter))
        }
        consumer?.continuation.resume(returning: nil)
        for producer in producers { producer.continuation.resume(throwing: PipelineError.stopped) }
    }
}
