import BeaconCore

extension RangingLoop {
    /// Feeds one sighting and returns the updates of the cycles it closed (convenient for tests
    /// and tools; allocates — hot paths use ``ingest(_:onUpdate:)``).
    public mutating func ingest(_ sighting: BeaconSighting) -> [RangingUpdate] {
        var updates: [RangingUpdate] = []
        ingest(sighting) { updates.append($0) }
        return updates
    }

    /// Advances time to `now` and returns the updates of the cycles that ended (allocates).
    public mutating func advance(to now: Timestamp) -> [RangingUpdate] {
        var updates: [RangingUpdate] = []
        advance(to: now) { updates.append($0) }
        return updates
    }
}
