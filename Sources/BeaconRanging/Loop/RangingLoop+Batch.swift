import BeaconCore
import CBeaconPrefetch

extension RangingLoop {
    /// How many sightings ahead of the one being recorded a batch prefetches the home bucket.
    static let bucketPrefetchDistance = 16
    /// How many sightings ahead it prefetches the tracked state the home bucket points at.
    static let statePrefetchDistance = 8
    /// Below this many tracked beacons (1 MB of hot state) everything stays in the processor's
    /// caches and the loop does not prefetch: the hints would only cost instructions.
    static let defaultPrefetchFromCount = 16_384

    /// Feeds a batch of sightings in order; equivalent to calling ``ingest(_:onUpdate:)`` for
    /// each, but faster with many tracked beacons: while recording one sighting the loop asks the
    /// processor to fetch the index bucket of the sighting 16 places ahead and the 64-byte state of
    /// the one 8 places ahead, so the cache misses of a batch overlap instead of following one
    /// another (from 16,384 tracked beacons on; below, the state stays in cache anyway). The
    /// prefetches are hints: the recording itself looks every identity up as usual,
    /// so evictions or new beacons within the batch cannot make it use a stale slot. No allocation.
    public mutating func ingest(
        contentsOf sightings: UnsafeBufferPointer<BeaconSighting>,
        onUpdate: (RangingUpdate) throws -> Void
    ) rethrows {
        let count = sightings.count
        recordPending()
        guard tracked.count >= prefetchFromCount else {
            for s in sightings { try ingest(s, deferring: false, onUpdate: onUpdate) }
            return
        }
        for k in 0..<min(count, Self.bucketPrefetchDistance) { tracked.index.prefetchHome(of: sightings[k].id) }
        for k in 0..<count {
            if k + Self.bucketPrefetchDistance < count {
                tracked.index.prefetchHome(of: sightings[k + Self.bucketPrefetchDistance].id)
            }
            if k + Self.statePrefetchDistance < count {
                let candidate = tracked.index.homeCandidate(of: sightings[k + Self.statePrefetchDistance].id)
                tracked.hot.withUnsafeBufferPointer { Self.prefetch(slot: candidate, in: $0) }
            }
            try ingest(sightings[k], deferring: false, onUpdate: onUpdate)
        }
    }

    /// Asks the processor to start fetching the hot state at `slot` (the one in a sighting's
    /// home bucket: usually its own; a hint either way). Static, so that calling it from the
    /// mutating loop does not copy the loop.
    @inline(__always)
    static func prefetch(slot: Int, in all: UnsafeBufferPointer<HotBeaconState>) {
        guard slot >= 0, slot < all.count else { return }
        beacon_prefetch(all.baseAddress! + slot) // one cache line (HotStateTable aligns records)
    }
}
