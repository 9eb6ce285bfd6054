import BeaconCore

extension RangingLoop {
    /// How many sightings of a batch are looked up before they are recorded.
    static let lookahead = 16

    /// Feeds a batch of sightings in order; equivalent to calling ``ingest(_:onUpdate:)`` for
    /// each, but faster with many tracked beacons: the identities of up to 16 sightings are looked
    /// up first — all home buckets, then all candidate identities — so the processor fetches
    /// their state from memory in parallel instead of one cache miss after another. No allocation: the looked-up slots live on the stack.
    public mutating func ingest(contentsOf sightings: UnsafeBufferPointer<BeaconSighting>,
                                onUpdate: (RangingUpdate) throws -> Void) rethrows {
        var slots: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) =
            (-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1)
        var start = 0
        while start < sightings.count {
            let end = min(start + Self.lookahead, sightings.count)
            hot.withUnsafeBufferPointer { all in
                withUnsafeMutableBytes(of: &slots) { raw in
                    let found = raw.bindMemory(to: Int.self)
                    // Two passes, each of independent loads: home buckets, then the candidates' identities.
                    for k in start..<end { found[k - start] = index.homeCandidate(of: sightings[k].id) }
                    for k in start..<end {
                        let candidate = found[k - start]
                        if candidate < 0 { continue }   // not tracked (yet)
                        let id = sightings[k].id
                        if !all[candidate].matches(id) {
                            found[k - start] = index.slot(of: id) { all[$0].matches(id) } ?? -1
                        }
                    }
                }
            }
            for k in start..<end {
                let slot = withUnsafeBytes(of: &slots) { $0.load(fromByteOffset: (k - start) * 8, as: Int.self) }
                try ingest(sightings[k], knownSlot: slot, onUpdate: onUpdate)
            }
            start = end
        }
    }

    /// ``ingest(_:onUpdate:)`` with a slot looked up earlier; the slot is used only if it still
    /// holds the sighting's beacon (an eviction in between may have moved beacons).
    @inline(__always)
    private mutating func ingest(_ sighting: BeaconSighting, knownSlot: Int,
                                 onUpdate: (RangingUpdate) throws -> Void) rethrows {
        let t = sighting.timestamp.nanosecondsSinceEpoch
        if let start = currentCycleStart?.nanosecondsSinceEpoch, t >= start, t < start &+ cycleNanoseconds,
           knownSlot >= 0, knownSlot < hot.count, hot[knownSlot].matches(sighting.id) {
            record(sighting, at: knownSlot)   // inside the current cycle, beacon already tracked
        } else {
            try ingest(sighting, onUpdate: onUpdate)
        }
    }
}
