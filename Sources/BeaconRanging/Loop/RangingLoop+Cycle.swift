import BeaconCore

extension RangingLoop {
    /// Emits every cycle ending at or before `t` (ns), then starts the cycle containing `t`.
    mutating func closeCycles(through t: Int64, onUpdate: (RangingUpdate) throws -> Void) rethrows {
        guard var start = currentCycleStart?.nanosecondsSinceEpoch else { return }
        recordPending()
        while start &+ cycleNanoseconds <= t {
            if tracked.isEmpty && enterEvents.isEmpty {
                start = cycleFloor(t) // nothing tracked: skip the idle stretch
                break
            }
            let end = start &+ cycleNanoseconds
            finishCycle(start: start, end: end)
            currentCycleStart = Timestamp(nanosecondsSinceEpoch: end)
            try onUpdate(update)
            start = end
        }
        currentCycleStart = Timestamp(nanosecondsSinceEpoch: start)
    }

    /// Fills ``update`` for the cycle `[start, end)` and resets per-cycle state.
    private mutating func finishCycle(start: Int64, end: Int64) {
        update.cycleStart = Timestamp(nanosecondsSinceEpoch: start)
        update.time = Timestamp(nanosecondsSinceEpoch: end)
        update.regionEvents.removeAll(keepingCapacity: true)
        update.evicted.removeAll(keepingCapacity: true)
        update.regionEvents.append(contentsOf: enterEvents)
        enterEvents.removeAll(keepingCapacity: true)
        newcomers.startCycle()
        if update.evicted.capacity > max(64, 4 * tracked.count) { update.evicted = [] }
        // After a flood, most of the buffer is no longer needed: give it back.
        if update.beacons.capacity > max(64, 4 * tracked.count) {
            update.beacons = []
        }

        // Every confirmed beacon may be listed: grow the buffer once, to about what it needs,
        // rather than doubling it while appending (a ranged beacon is 232 bytes).
        if update.beacons.capacity < tracked.count {
            update.beacons.reserveCapacity(tracked.count + tracked.count / 16)
            FreedMemory.release(afterGrowingTo: update.beacons.capacity * MemoryLayout<RangedBeacon>.stride)
        }

        // Last cycle's list is overwritten in place, not emptied and filled again: the order of
        // the slots is stable, so an element usually holds the same beacon as before and only
        // its figures change (emptying destroyed each element, appending copied 232 bytes).
        var beacons: [RangedBeacon] = []
        swap(&beacons, &update.beacons)
        var listed = 0
        let model = configuration.distanceModel
        let logExponent = model.logDistanceExponent
        let endTime = Timestamp(nanosecondsSinceEpoch: end)
        var slot = 0
        while slot < tracked.count {
            let unseen = end &- tracked.hot[slot].lastSeen
            if tracked.hot[slot].flags & HotBeaconState.inRegions != 0 { exitRegions(slot: slot, at: endTime) }
            if unseen >= retentionNanoseconds && tracked.cold[slot].insideMask == 0 {
                evict(slot: slot)
                continue // the last beacon moved into `slot`
            }
            if tracked.hot[slot].flags & HotBeaconState.confirmed != 0 {
                if tracked.hot[slot].cycleSamples > 0 || unseen < graceNanoseconds {
                    list(slot: slot, at: listed, in: &beacons, model: model, logExponent: logExponent)
                    listed += 1
                } else if !configuration.enter.confirmsAtOnce {
                    tracked.hot[slot].flags &= ~HotBeaconState.confirmed // dropped out: confirm it again
                }
            }
            tracked.hot[slot].startCycle()
            slot += 1
        }
        if beacons.count > listed { beacons.removeSubrange(listed...) }
        swap(&beacons, &update.beacons)
        if tracked.count >= configuration.maxTracked {
            evictLeastRecentlySeen(max(1, configuration.maxTracked / RangingConfiguration.capEvictionShare))
        }
        shrinkIfMostlyEmpty()
    }

    /// Tables from this capacity on are shrunk once three quarters of them are empty.
    static let shrinkFromCapacity = 1024

    /// Shrinks the tracked-state tables and the index to twice what they hold when they hold a
    /// quarter of their capacity or less (the beacons of a flood have gone), and hands the freed
    /// memory back to the system. Allocates; runs only after such a fall.
    private mutating func shrinkIfMostlyEmpty() {
        let capacity = tracked.cold.capacity
        guard capacity >= Self.shrinkFromCapacity, tracked.count <= capacity / 4 else { return }
        tracked.shrink(to: max(16, tracked.count * 2))
        newcomers.releaseMemory()
        shrinks += 1
        FreedMemory.release(afterGrowingTo: FreedMemory.threshold)
    }

    /// At the cap: evicts the `count` beacons seen least recently (listed in `evicted`, dropped
    /// from this update's beacons), so that new beacons find room next cycle. Allocates; runs
    /// only at the cap.
    private mutating func evictLeastRecentlySeen(_ count: Int) {
        var slots = Array(0..<tracked.count)
        slots.sort { tracked.hot[$0].lastSeen < tracked.hot[$1].lastSeen }
        let ids = slots.prefix(count).map { tracked.cold[$0].id }
        for id in ids {
            guard let slot = tracked.slot(of: id) else { continue }
            evict(slot: slot)
            cappedEvictions += 1
        }
        let evicted = Set(ids)
        update.beacons.removeAll { evicted.contains($0.id) }
    }

    private mutating func exitRegions(slot: Int, at time: Timestamp) {
        var inside = tracked.cold[slot].insideMask
        guard inside != 0 else { return }
        let lastSeen = tracked.hot[slot].lastSeen
        while inside != 0 {
            let i = inside.trailingZeroBitCount
            inside &= inside - 1
            if lastSeen &+ exitTimeouts[i] <= time.nanosecondsSinceEpoch {
                tracked.cold[slot].insideMask &= ~(1 << UInt64(i))
                update.regionEvents.append(
                    RegionEvent(
                        kind: .exit, regionID: configuration.regions[i].id,
                        beacon: tracked.cold[slot].id, time: time))
            }
        }
    }

    /// Stops tracking the beacon at `slot` (listed in this update's `evicted`); the last tracked
    /// beacon moves into `slot`.
    mutating func evict(slot: Int) {
        update.evicted.append(tracked.remove(slot: slot))
    }

    /// Writes the report of the beacon at `slot` at the end of the cycle into `beacons[index]`
    /// (appending when `index` is the end), and updates its proximity state. An existing element
    /// is overwritten field by field in one access (`model` and `logExponent` are the
    /// configuration's, read once a cycle: each read of the model retains a custom one).
    @inline(__always)
    private mutating func list(
        slot: Int, at index: Int, in beacons: inout [RangedBeacon], model: borrowing DistanceModelKind,
        logExponent: Double?
    ) {
        let beacon = tracked.hot[slot]
        let id = tracked.cold[slot].id
        let calibration = configuration.calibrations.isEmpty ? nil : configuration.calibrations[id]
        let power = calibration?.measuredPower ?? beacon.measuredPower ?? configuration.defaultMeasuredPower
        let filtered = beacon.filtered
        var distance: Double?
        var accuracy: Double?
        if let filtered {
            let sigma = max(1, Double(beacon.innovationVariance).squareRoot())
            let estimate = model.distanceAndSpread(
                rssi: filtered, measuredPower: Double(power), pathLossExponent: calibration?.pathLossExponent,
                sigma: sigma, logExponent: logExponent)
            distance = estimate.distance
            accuracy = estimate.spread
        }
        let proximity = configuration.proximity.proximity(distance: distance, current: tracked.cold[slot].proximity)
        tracked.cold[slot].proximity = proximity
        let count = beacon.cycleRSSICount
        let figures = ListedBeaconFigures(
            id: id, address: beacon.lastAddress, addressCount: tracked.cold[slot].addresses.count,
            seen: beacon.cycleSamples > 0, samples: Int(beacon.cycleSamples), lastRSSI: beacon.lastRSSI,
            meanRSSI: count > 0 ? Double(beacon.cycleRSSISum) / Double(count) : nil, filtered: filtered,
            power: power, distance: distance, accuracy: accuracy, proximity: proximity,
            firstSeen: tracked.cold[slot].firstSeen, lastSeen: Timestamp(nanosecondsSinceEpoch: beacon.lastSeen))
        guard index < beacons.count else { return beacons.append(figures.ranged) }
        beacons.withUnsafeMutableBufferPointer { all in
            figures.write(into: &all[index])
            assert(all[index] == figures.ranged, "ListedBeaconFigures.write(into:) must set every field RangedBeacon's init sets")
        }
    }
}
