import BeaconCore

/// The one-by-one path's software pipeline: with many tracked beacons each sighting's index
/// bucket and state are fetched while the loop records the sightings before it.
///
/// A sighting accepted by ``RangingLoop/ingest(_:onUpdate:)`` waits in a two-place queue
/// (`pendingOlder`, `pendingNewer`). On arrival its home bucket is prefetched; one call later,
/// the state its home bucket points at; two calls later it is recorded. Pending sightings are
/// always inside the current cycle (late ones are dropped before, and a sighting that closes a
/// cycle first records the queue, as does every cycle closing), so updates are unchanged.
extension RangingLoop {
    /// Queues `sighting`, records the oldest pending one, prefetches for the others.
    @inline(__always)
    mutating func enqueue(_ sighting: BeaconSighting) {
        if let oldest = pendingOlder { record(oldest) }
        pendingOlder = pendingNewer
        pendingNewer = sighting
        if let next = pendingOlder {
            let candidate = tracked.index.homeCandidate(of: next.id) // bucket prefetched one call ago
            tracked.hot.withUnsafeBufferPointer { Self.prefetch(slot: candidate, in: $0) }
        }
        tracked.index.prefetchHome(of: sighting.id)
    }

    /// Records every pending sighting, oldest first.
    @inline(__always)
    mutating func recordPending() {
        guard pendingNewer != nil || pendingOlder != nil else { return }
        if let oldest = pendingOlder { record(oldest) }
        if let newest = pendingNewer { record(newest) }
        pendingOlder = nil
        pendingNewer = nil
    }

    /// Pending sightings of beacons not tracked yet (distinct identities), for ``trackedCount``.
    var pendingNewBeacons: Int {
        var n = 0
        let older = pendingOlder.map(\.id)
        if let id = older, !isTracked(id) { n += 1 }
        if let id = pendingNewer?.id, !isTracked(id), id != older { n += 1 }
        return n
    }

    private func isTracked(_ id: BeaconID) -> Bool {
        tracked.slot(of: id) != nil
    }
}
