import BeaconCore

extension RangingLoop {
    /// Emits every cycle ending at or before `t` (ns), then starts the cycle containing `t`.
    mutating func closeCycles(through t: Int64, onUpdate: (RangingUpdate) throws -> Void) rethrows {
        guard var start = currentCycleStart?.nanosecondsSinceEpoch else { return }
        recordPending()
        while start &+ cycleNanoseconds <= t {
            if hot.isEmpty && enterEvents.isEmpty {
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
        newcomers.removeAll(keepingCapacity: true)
        if update.evicted.capacity > max(64, 4 * hot.count) { update.evicted = [] }
        // After a flood, most of the buffer is no longer needed: give it back.
        if update.beacons.capacity > max(64, 4 * hot.count) {
            update.beacons = []
        }

        // Every confirmed beacon may be listed: grow the buffer once, to about what it needs,
        // rather than doubling it while appending (a ranged beacon is 232 bytes).
        if update.beacons.capacity < hot.count {
            update.beacons.reserveCapacity(hot.count + hot.count / 16)
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
        while slot < hot.count {
            let unseen = end &- hot[slot].lastSeen
            if hot[slot].flags & HotBeaconState.inRegions != 0 { exitRegions(slot: slot, at: endTime) }
            if unseen >= retentionNanoseconds && cold[slot].insideMask == 0 {
                evict(slot: slot)
                continue // the last beacon moved into `slot`
            }
            if hot[slot].flags & HotBeaconState.confirmed != 0 {
                if hot[slot].cycleSamples > 0 || unseen < graceNanoseconds {
                    list(slot: slot, at: listed, in: &beacons, model: model, logExponent: logExponent)
                    listed += 1
                } else if !configuration.enter.confirmsAtOnce {
                    hot[slot].flags &= ~HotBeaconState.confirmed // dropped out: confirm it again
                }
            }
            hot[slot].startCycle()
            slot += 1
        }
        if beacons.count > listed { beacons.removeSubrange(listed...) }
        swap(&beacons, &update.beacons)
        if hot.count >= configuration.maxTracked {
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
        let capacity = cold.capacity
        guard capacity >= Self.shrinkFromCapacity, hot.count <= capacity / 4 else { return }
        let target = max(16, hot.count * 2)
        hot.shrink(to: target)
        var smaller: [ColdBeaconState] = []
        smaller.reserveCapacity(target)
        smaller.append(contentsOf: cold)
        cold = smaller
        if !filters.isEmpty || filters.capacity > 0 {
            var fewer: [AnyRSSIFilter] = []
            fewer.reserveCapacity(armaSpeed == nil ? target : 0)
            fewer.append(contentsOf: filters)
            filters = fewer
        }
        cold.withUnsafeBufferPointer { all in index.rebuild(count: all.count) { all[$0].id } }
        newcomers = []
        shrinks += 1
        FreedMemory.release(afterGrowingTo: FreedMemory.threshold)
    }

    /// At the cap: evicts the `count` beacons seen least recently (listed in `evicted`, dropped
    /// from this update's beacons), so that new beacons find room next cycle. Allocates; runs
    /// only at the cap.
    private mutating func evictLeastRecentlySeen(_ count: Int) {
        var slots = Array(0..<hot.count)
        slots.sort { hot[$0].lastSeen < hot[$1].lastSeen }
        let ids = slots.prefix(count).map { cold[$0].id }
        for id in ids {
            guard let slot = hot.withUnsafeBufferPointer({ all in index.slot(of: id) { all[$0].matches(id) } }) else {
                continue
            }
            evict(slot: slot)
            cappedEvictions += 1
        }
        let evicted = Set(ids)
        update.beacons.removeAll { evicted.contains($0.id) }
    }

    private mutating func exitRegions(slot: Int, at time: Timestamp) {
        var inside = cold[slot].insideMask
        guard inside != 0 else { return }
        let lastSeen = hot[slot].lastSeen
        while inside != 0 {
            let i = inside.trailingZeroBitCount
            inside &= inside - 1
            if lastSeen &+ exitTimeouts[i] <= time.nanosecondsSinceEpoch {
                cold[slot].insideMask &= ~(1 << UInt64(i))
                update.regionEvents.append(
                    RegionEvent(
                        kind: .exit, regionID: configuration.regions[i].id,
                        beacon: cold[slot].id, time: time))
            }
        }
    }

    mutating func evict(slot: Int) {
        let id = cold[slot].id
        update.evicted.append(id)
        cold.withUnsafeBufferPointer { all in index.remove(id, slot: slot) { all[$0].id } }
        let last = hot.count - 1
        if slot != last {
            index.move(cold[last].id, from: last, to: slot)
            hot.swapAt(slot, last)
            cold.swapAt(slot, last)
            if !filters.isEmpty { filters.swapAt(slot, last) }
        }
        hot.removeLast()
        cold.removeLast()
        if !filters.isEmpty { filters.removeLast() }
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
        let beacon = hot[slot]
        let id = cold[slot].id
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
        let proximity = configuration.proximity.proximity(distance: distance, current: cold[slot].proximity)
        cold[slot].proximity = proximity
        let count = beacon.cycleRSSICount
        let figures = Figures(
            id: id, address: beacon.lastAddress, addressCount: cold[slot].addresses.count,
            seen: beacon.cycleSamples > 0, samples: Int(beacon.cycleSamples), lastRSSI: beacon.lastRSSI,
            meanRSSI: count > 0 ? Double(beacon.cycleRSSISum) / Double(count) : nil, filtered: filtered,
            power: power, distance: distance, accuracy: accuracy, proximity: proximity,
            firstSeen: cold[slot].firstSeen, lastSeen: Timestamp(nanosecondsSinceEpoch: beacon.lastSeen))
        guard index < beacons.count else { return beacons.append(figures.ranged) }
        beacons.withUnsafeMutableBufferPointer { all in
            figures.write(into: &all[index])
            assert(all[index] == figures.ranged, "Figures.write(into:) must set every field RangedBeacon's init sets")
        }
    }
}

/// One listed beacon's figures at the end of a cycle, written into a ``RangedBeacon`` as its
/// initialiser would make it (the fields a site hub fills left empty).
private struct Figures {
    let id: BeaconID
    let address: UInt64
    let addressCount: Int
    let seen: Bool
    let samples: Int
    let lastRSSI: Int8?
    let meanRSSI: Double?
    let filtered: Double?
    let power: Int8
    let distance: Double?
    let accuracy: Double?
    let proximity: Proximity
    let firstSeen: Timestamp
    let lastSeen: Timestamp

    /// The figures as a new value.
    var ranged: RangedBeacon {
        RangedBeacon(
            id: id, lastAddress: BluetoothAddress(rawValue: address), addressCount: addressCount,
            seenThisCycle: seen, sampleCount: samples, lastRSSI: lastRSSI, meanRSSI: meanRSSI,
            filteredRSSI: filtered, measuredPower: power, distance: distance, accuracy: accuracy,
            proximity: proximity, firstSeen: firstSeen, lastSeen: lastSeen)
    }

    /// Overwrites every field of `ranged` in place: no 232-byte copy, and its strings (nil for a
    /// gateway's own ranging) are only checked. Debug builds check the result against ``ranged``.
    @inline(__always)
    func write(into ranged: inout RangedBeacon) {
        ranged.id = id
        ranged.lastAddress = BluetoothAddress(rawValue: address)
        ranged.addressCount = addressCount
        ranged.seenThisCycle = seen
        ranged.sampleCount = samples
        ranged.gatewayCount = seen ? 1 : 0
        ranged.lastRSSI = lastRSSI
        ranged.meanRSSI = meanRSSI
        ranged.filteredRSSI = filtered
        ranged.measuredPower = power
        ranged.distance = distance
        ranged.accuracy = accuracy
        ranged.proximity = proximity
        ranged.firstSeen = firstSeen
        ranged.lastSeen = lastSeen
        if ranged.room != nil { ranged.room = nil }
        if ranged.floor != nil { ranged.floor = nil }
        ranged.position = nil
        ranged.roomConfidence = nil
        ranged.roomUnknown = false
    }
}
