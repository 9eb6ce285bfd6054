import BeaconAlerting
import BeaconBlueZ
import BeaconCore
import Foundation

/// An ``AlertPipeline`` shared by the source's task and a live source's clock tick: one caller
/// at a time.
final class LockedPipeline: @unchecked Sendable {
    private let lock = NSLock()
    private let pipeline: AlertPipeline

    init(_ pipeline: AlertPipeline) {
        self.pipeline = pipeline
    }

    func ingest(_ batch: borrowing PacketBatch, emit: (RoutedEvent) throws -> Void) throws {
        lock.lock()
        defer { lock.unlock() }
        try pipeline.ingest(batch, emit: emit)
    }

    func advance(to now: Timestamp, emit: (RoutedEvent) throws -> Void) throws {
        lock.lock()
        defer { lock.unlock() }
        try pipeline.advance(to: now, emit: emit)
    }

    func replaceAlerts(_ definitions: [AlertDefinition], registry: StrategyRegistry) throws(PipelineError) {
        lock.lock()
        defer { lock.unlock() }
        try pipeline.replaceAlerts(definitions, registry: registry)
    }

    func post(_ fact: EngineFact, now: Timestamp?, emit: (RoutedEvent) throws -> Void) throws -> Timestamp {
        lock.lock()
        defer { lock.unlock() }
        let time = now ?? pipeline.latestTime ?? WallClock().now
        try pipeline.post(fact, now: time, emit: emit)
        return time
    }

    /// Hands the presence changes so far to `observers` (outside the lock).
    func observeBeacons(_ observers: [any BeaconStateObserver]) {
        guard !observers.isEmpty else { return }
        lock.lock()
        let changes = pipeline.takePresenceChanges()
        lock.unlock()
        if !changes.isEmpty { for observer in observers { observer.observe(changes) } }
    }

    var trackedBeacons: Int {
        lock.lock()
        defer { lock.unlock() }
        return pipeline.trackedBeacons
    }

    var statistics: PipelineStatistics {
        lock.lock()
        defer { lock.unlock() }
        return pipeline.statistics
    }
}
