import BeaconCore

// The per-cycle steps of the base class: its hot path, run for every beacon of every cycle.
//
// The beacons are read in place, through pointers into the update's buffer: the base's code runs
// unspecialised for every subclass, where each copy of a `RangedBeacon` (232 bytes with two
// strings) is an outlined value-witness call plus retains and releases.
extension BeaconAlertStrategyBase {
    /// Runs one whole cycle over the beacons of `update` whose identity satisfies `isIncluded`,
    /// reading each beacon in place (what the protocol's default does, without copying them).
    public final func evaluate(
        _ update: RangingUpdate, matching isIncluded: (BeaconID) -> Bool,
        into triggers: inout [AlertTrigger]
    ) {
        let key = self.key
        let now = update.time
        let rule = presenceRule
        update.beacons.withUnsafeBufferPointer { beacons in
            guard let first = beacons.baseAddress else { return }
            for index in beacons.indices where isIncluded(first[index].id) {
                let beacon = first + index
                if fireIfReady(updateSlot(beacon, now: now, rule: rule)) {
                    triggers.append(AlertTrigger(beacon: beacon.pointee.id, strategy: key, time: now))
                }
            }
        }
        finishCycle(now: now) { id in
            triggers.append(AlertTrigger(beacon: id, strategy: key, time: now))
        }
    }

    /// Finds (or makes) the slot of `beacon` and steps it (telling presence by `rule`); returns the slot.
    func updateSlot(_ beacon: UnsafePointer<RangedBeacon>, now: Timestamp, rule: PresenceRule) -> Int {
        let id = beacon.pointee.id
        let previous = previousSlot
        var hinted = previous < 0 ? Int(firstHint) : previous < hints.count ? Int(hints[previous]) : -1
        if hinted >= 0, hinted < ids.count, ids[hinted] != id, hinted < hints.count {
            // The hinted beacon may be missing from this cycle: try the one that followed it.
            hinted = Int(hints[hinted])
        }
        let slot: Int
        if hinted >= 0, hinted < ids.count, ids[hinted] == id {
            slot = hinted
        } else {
            if let existing = slots[id] {
                slot = existing
            } else {
                slot = ids.count
                slots[id] = slot
                appendValue(initialValue)
                ids.append(id)
                books.append(Bookkeeping(lastSeen: now))
            }
            while hints.count <= slot { hints.append(-1) }
            if previous < 0 {
                firstHint = Int32(truncatingIfNeeded: slot)
            } else if previous < hints.count {
                hints[previous] = Int32(truncatingIfNeeded: slot)
            }
        }
        previousSlot = slot
        step(slot, lending: beacon, now: now, rule: rule)
        return slot
    }

    /// One cycle of the beacon in `slot`, whose ranging state is read in place at `beacon`.
    ///
    /// The hooks take the state as a `RangedBeacon?` and are opaque calls, so passing them
    /// `beacon.pointee` would copy it (232 bytes, retaining its strings) at each. Instead the
    /// bytes are lent: copied bitwise into a temporary laid out as `RangedBeacon?` (an optional of
    /// a struct with spare values is the struct itself), taken from it as a value without
    /// retaining, passed on borrowed, and given back to the temporary, which is deallocated
    /// without being destroyed. Nothing is retained or released; `update.beacons` owns the state
    /// throughout, and hooks that keep a copy retain it as usual.
    ///
    /// In a quiet period nothing is lent when presence needs no hook: unseen (never present), or
    /// told by the subclass's `rule`.
    func step(_ slot: Int, lending beacon: UnsafePointer<RangedBeacon>, now: Timestamp, rule: PresenceRule) {
        if rule != .hook || !beacon.pointee.seenThisCycle,
            stepQuietly(slot, present: rule.isPresent(beacon), now: now)
        {
            return
        }
        guard MemoryLayout<RangedBeacon?>.size == MemoryLayout<RangedBeacon>.size else {
            return step(slot, beacon: beacon.pointee, now: now)
        }
        withUnsafeTemporaryAllocation(of: RangedBeacon?.self, capacity: 1) { temporary in
            let bytes = temporary.baseAddress!
            UnsafeMutableRawPointer(bytes).copyMemory(from: beacon, byteCount: MemoryLayout<RangedBeacon>.size)
            let lent = bytes.move()
            step(slot, beacon: lent, now: now)
            bytes.initialize(to: lent)
        }
    }

    /// One cycle of the beacon in `slot`: `beacon` is its ranging state, nil when it was not in
    /// the update. Inside a ``QuietPeriod`` only the base's own bookkeeping runs.
    func step(_ slot: Int, beacon: RangedBeacon?, now: Timestamp) {
        precondition(!inHooks, reentryMessage)
        inHooks = true
        let present = if let beacon { isPresent(beacon) } else { false }
        inHooks = false
        if stepQuietly(slot, present: present, now: now) { return }
        settle(slot) // the cycles before this one
        books[slot].noteSighting(present: present, at: now, resetAfter: configuration.maxTimeBeforeReset)
        inHooks = true
        updateAlertParameter(&values[slot], beacon: beacon, now: now)
        let valid = isConditionValid(values[slot], now: now)
        let period = allowsQuietSteps ? quietPeriod(after: values[slot], now: now) : nil
        inHooks = false
        books[slot].conditionValid = valid
        books[slot].startQuiet(period, at: now.nanosecondsSinceEpoch)
        books[slot].finishStep(present: present, cycle: cycle, resetWhenInvalid: configuration.resetWhenConditionInvalid)
    }

    /// The cycle at `now` of the beacon in `slot` when it is in a quiet period that goes on
    /// through this cycle: the base's bookkeeping only, and true. False, having done nothing,
    /// when the beacon is not quiet or its period ends here.
    ///
    /// The most frequent step of all: it reaches the bookkeeping through one pointer, where each
    /// `books[slot]` write would check the array's uniqueness again.
    @inline(__always)
    func stepQuietly(_ slot: Int, present: Bool, now: Timestamp) -> Bool {
        let time = now.nanosecondsSinceEpoch
        let resetAfter = configuration.maxTimeBeforeReset
        let resetWhenInvalid = configuration.resetWhenConditionInvalid
        let cycle = self.cycle
        return books.withUnsafeMutableBufferPointer { books in
            let book = books.baseAddress! + slot
            guard book.pointee.staysQuiet(present: present, at: time) else { return false }
            book.pointee.noteSighting(present: present, at: now, resetAfter: resetAfter)
            book.pointee.lastCycle = time
            book.pointee.finishStep(present: present, cycle: cycle, resetWhenInvalid: resetWhenInvalid)
            return true
        }
    }

    /// Brings the value in `slot` up to date after cycles skipped in a quiet period
    /// (``catchUp(_:lastPresent:presentAtLastCycle:)``); the period goes on.
    func settle(_ slot: Int) {
        guard books[slot].needsCatchUp else { return }
        precondition(!inHooks, reentryMessage)
        let lastSeen = books[slot].lastSeen
        let lastPresent = lastSeen.nanosecondsSinceEpoch > books[slot].currentThrough ? lastSeen : nil
        inHooks = true
        catchUp(&values[slot], lastPresent: lastPresent, presentAtLastCycle: books[slot].presentAtLastCycle)
        inHooks = false
        books[slot].currentThrough = books[slot].lastCycle
    }

    /// When the beacon in `slot` is ready, marks its action done and returns true.
    func fireIfReady(_ slot: Int) -> Bool {
        guard books[slot].conditionValid, books[slot].actionStatus == .waitingForAction else { return false }
        books[slot].actionStatus = .actionDone
        books[slot].changed = true
        return true
    }
}
