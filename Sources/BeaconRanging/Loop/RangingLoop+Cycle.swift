import BeaconCore

extension RangingLoop {
    /// Emits every cycle ending at or before `t` (ns), then starts the cycle containing `t`.
    mutating func closeCycles(through t: Int64, onUpdate: (RangingUpdate) throws -> Void) rethrows {
        guard var start = currentCycleStart?.nanosecondsSinceEpoch else { return }
        while start &+ cycleNanoseconds <= t {
            if beacons.isEmpty && enterEvents.isEmpty {
                start = cycleFloor(t)   // nothing tracked: skip the idle stretch
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
        update.beacons.removeAll(keepingCapacity: true)
        update.regionEvents.removeAll(keepingCapacity: true)
        update.evicted.removeAll(keepingCapacity: true)
        update.regionEvents.append(contentsOf: enterEvents)
        enterEvents.removeAll(keepingCapacity: true)

        let endTime = Timestamp(nanosecondsSinceEpoch: end)
        var slot = 0
        while slot < beacons.count {
            let unseen = end &- beacons[slot].lastSeen.nanosecondsSinceEpoch
            exitRegions(slot: slot, at: endTime)
            if unseen >= retentionNanoseconds && beacons[slot].insideMask == 0 {
                evict(slot: slot)
                continue   // the last beacon moved into `slot`
            }
            if beacons[slot].cycleSamples > 0 || unseen < graceNanoseconds {
                update.beacons.append(ranged(slot: slot))
            }
            beacons[slot].startCycle()
            slot += 1
        }
    }

    private mutating func exitRegions(slot: Int, at time: Timestamp) {
        var inside = beacons[slot].insideMask
        guard inside != 0 else { return }
        let lastSeen = beacons[slot].lastSeen.nanosecondsSinceEpoch
        while inside != 0 {
            let i = inside.trailingZeroBitCount
            inside &= inside - 1
            if lastSeen &+ exitTimeouts[i] <= time.nanosecondsSinceEpoch {
                beacons[slot].insideMask &= ~(1 << UInt64(i))
                update.regionEvents.append(RegionEvent(kind: .exit, regionID: configuration.regions[i].id,
                                                       beacon: beacons[slot].id, time: time))
            }
        }
    }

    private mutating func evict(slot: Int) {
        let id = beacons[slot].id
        update.evicted.append(id)
        beacons.withUnsafeBufferPointer { all in index.remove(id, slot: slot) { all[$0].id } }
        let last = beacons.count - 1
        if slot != last {
            index.move(beacons[last].id, from: last, to: slot)
            beacons.swapAt(slot, last)
        }
        beacons.removeLast()
    }

    /// The report of one beacon at the end of the cycle; updates its proximity state.
    private mutating func ranged(slot: Int) -> RangedBeacon {
        let beacon = beacons[slot]
        let calibration = configuration.calibrations.isEmpty ? nil : configuration.calibrations[beacon.id]
        let power = calibration?.measuredPower ?? beacon.frameMeasuredPower ?? configuration.defaultMeasuredPower
        let filtered = beacon.filter.estimate
        var distance: Double?
        var accuracy: Double?
        if let filtered {
            let model = configuration.distanceModel
            let exponent = calibration?.pathLossExponent
            let d = model.distance(rssi: filtered, measuredPower: Double(power), pathLossExponent: exponent)
            let sigma = max(1, Double(beacon.innovationVariance).squareRoot())
            let farther = model.distance(rssi: filtered - sigma, measuredPower: Double(power), pathLossExponent: exponent)
            distance = d
            accuracy = abs(farther - d)
        }
        let proximity = configuration.proximity.proximity(distance: distance, current: beacon.proximity)
        beacons[slot].proximity = proximity
        let count = beacon.cycleRSSICount
        return RangedBeacon(
            id: beacon.id, lastAddress: beacon.lastAddress, addressCount: beacon.addresses.count,
            seenThisCycle: beacon.cycleSamples > 0, sampleCount: Int(beacon.cycleSamples),
            lastRSSI: beacon.cycleLastRSSI,
            meanRSSI: count > 0 ? Double(beacon.cycleRSSISum) / Double(count) : nil,
            filteredRSSI: filtered, measuredPower: power, distance: distance, accuracy: accuracy,
            proximity: proximity, firstSeen: beacon.firstSeen, lastSeen: beacon.lastSeen)
    }
}
