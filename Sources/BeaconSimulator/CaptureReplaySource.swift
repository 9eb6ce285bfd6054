import BeaconCore
import BeaconWire
import Synchronization

/// Replays a capture file (btsnoop, pcap, pcapng) as an `AdvertisementSource`: its records are
/// delivered in order, stamped with their capture time, either as fast as the consumer takes
/// them (`speed == nil`) or paced at `speed` × real time through an injected clock. A paced
/// batch never spans more than ``pacingQuantum`` of real time, so a sparse capture is not
/// delivered ahead of its time a batch at a time.
///
/// Malformed records do not stop a replay: they are counted in ``statistics`` (by kind) and
/// skipped, as `beacond parse` does.
public final class CaptureReplaySource: ResumableSource {
    /// What a replay read.
    public struct Statistics: Hashable, Sendable {
        /// Records handed downstream.
        public var recordsDelivered = 0
        /// Records before the resume time, read and not delivered (see ``resuming(from:)``).
        public var recordsSkipped = 0
        /// Records that could not be read, by error kind.
        public var errorsByKind: [String: Int] = [:]
        /// The first and last capture timestamps delivered.
        public var firstTimestamp: Timestamp?
        public var lastTimestamp: Timestamp?
    }

    /// The longest real time one paced batch may span (its records are delivered together).
    public static let pacingQuantum: Duration = .milliseconds(50)

    public let name: String
    private let capture: CaptureFile
    private let speed: Double?
    private let batchSize: Int
    private let clock: any Clock<Duration>
    private let resumeTime: Timestamp?
    private let state = Mutex(Statistics())

    /// Opens `path` (reading and checking its header).
    /// - Parameters:
    ///   - path: the capture file (btsnoop, pcap or pcapng).
    ///   - speed: `nil` for as fast as possible; otherwise the factor over real time (1 = as captured).
    ///   - batchSize: records per batch.
    ///   - clock: paces a finite-speed replay (tests inject a manual clock).
    public init(
        path: String, speed: Double? = nil, batchSize: Int = 1024,
        clock: any Clock<Duration> = ContinuousClock()
    ) throws(CaptureError) {
        capture = try CaptureFile(path: path)
        name = "replay:\(path)"
        self.speed = speed.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        self.batchSize = max(1, batchSize)
        self.clock = clock
        resumeTime = nil
    }

    private init(resuming source: CaptureReplaySource, from time: Timestamp) {
        (capture, name, speed, batchSize, clock) = (source.capture, source.name, source.speed, source.batchSize, source.clock)
        resumeTime = time
    }

    /// This replay from `time` on: the records stamped before it are skipped (counted in
    /// ``Statistics/recordsSkipped``), and pacing starts at the first one delivered.
    public func resuming(from time: Timestamp) -> any AdvertisementSource {
        CaptureReplaySource(resuming: self, from: time)
    }

    /// What has been read so far.
    public var statistics: Statistics { state.withLock { $0 } }

    public func run(deliver: (borrowing PacketBatch) async throws -> Void) async throws {
        var batch = PacketBatch(byteCapacity: batchSize * 64, packetCapacity: batchSize)
        var batches: [PacketBatch] = []
        // Paced: a batch closes before a record more than a quantum of real time after its first.
        let span = speed.map { Self.pacingQuantum * $0 }
        var batchStart: Timestamp?
        var skipped = 0
        // Reading is synchronous and cheap (the file is in memory); delivering is async. Collect
        // batches per chunk of records, then hand them over in order.
        capture.forEachItem { item in
            switch item {
            case .record(let record):
                if let resumeTime, record.timestamp < resumeTime {
                    skipped += 1
                    return
                }
                if let span, let start = batchStart, record.timestamp - start > span, !batch.isEmpty {
                    batches.append(batch)
                    batch.removeAll()
                }
                if batch.isEmpty { batchStart = record.timestamp }
                batch.append(record.bytes, linkType: record.linkType, timestamp: record.timestamp)
                if batch.count >= batchSize {
                    batches.append(batch)
                    batch.removeAll()
                }
            case .error(let error):
                state.withLock { $0.errorsByKind[error.kind.rawValue, default: 0] += 1 }
            }
        }
        if !batch.isEmpty { batches.append(batch) }
        state.withLock { $0.recordsSkipped += skipped }

        var origin: (capture: Timestamp, wall: any InstantProtocol)?
        for batch in batches {
            try Task.checkCancellation()
            if let speed, let first = batch.records.first?.timestamp {
                try await pace(to: first, speed: speed, origin: &origin)
            }
            try await deliver(batch)
            state.withLock { stats in
                stats.recordsDelivered += batch.count
                if stats.firstTimestamp == nil { stats.firstTimestamp = batch.records.first?.timestamp }
                stats.lastTimestamp = batch.records.last?.timestamp ?? stats.lastTimestamp
            }
        }
    }

    private func pace(
        to captureTime: Timestamp, speed: Double,
        origin: inout (capture: Timestamp, wall: any InstantProtocol)?
    ) async throws {
        try await pace(clock: clock, to: captureTime, speed: speed, origin: &origin)
    }

    private func pace<C: Clock<Duration>>(
        clock: C, to captureTime: Timestamp, speed: Double,
        origin: inout (capture: Timestamp, wall: any InstantProtocol)?
    ) async throws {
        guard let (start, wall) = origin, let wallStart = wall as? C.Instant else {
            origin = (captureTime, clock.now)
            return
        }
        let elapsed = (captureTime - start).secondsValue / speed
        try await clock.sleep(until: wallStart.advanced(by: .nanoseconds(Int64(elapsed * 1e9))), tolerance: nil)
    }
}
