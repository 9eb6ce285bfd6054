import BeaconCore

/// The ranging loop's tracked beacons: one ``BeaconIndex`` over three tables kept by slot — the
/// 64-byte ``HotBeaconState`` every advertisement touches, the ``ColdBeaconState`` read at cycle
/// end, and each beacon's RSSI filter unless the filter is ARMA (then the hot record's estimate is
/// the whole filter and ``filters`` stays empty).
///
/// Slots are dense: removing a beacon moves the last one into its slot, so a cycle walks
/// `0..<count` with no holes. The tables grow by an eighth when full (``HotStateTable/grown(_:)``)
/// and are shrunk by ``shrink(to:)`` once a flood has gone. The loop reads and writes the tables
/// in place (`tracked.hot[slot]`); what keeps them consistent with each other and with the
/// index — adding, removing, shrinking — is here.
struct TrackedBeaconTable: Sendable {
    /// Slot by identity, probed against the hot records.
    var index = BeaconIndex()
    /// The per-advertisement records, by slot.
    var hot = HotStateTable()
    /// The rest of each beacon's state, same slots.
    var cold: [ColdBeaconState] = []
    /// Each beacon's filter, same slots; empty unless ``keepsFilters``.
    var filters: [AnyRSSIFilter] = []
    /// Whether each beacon has a filter of its own (`false` when the filter is ARMA, as by default).
    let keepsFilters: Bool

    /// An empty table; `keepsFilters`: whether each beacon gets a filter of its own.
    init(keepsFilters: Bool) {
        self.keepsFilters = keepsFilters
    }

    /// Number of tracked beacons.
    @inline(__always) var count: Int { hot.count }
    /// Whether no beacon is tracked.
    var isEmpty: Bool { hot.isEmpty }

    /// The slot of `id`, if it is tracked.
    @inline(__always)
    func slot(of id: BeaconID) -> Int? {
        hot.withUnsafeBufferPointer { all in index.slot(of: id) { all[$0].matches(id) } }
    }

    /// Adds a beacon (`hotState` and `coldState` describe the same one) and returns its slot.
    /// `filter` is asked for only when the table ``keepsFilters``.
    mutating func append(
        _ hotState: HotBeaconState, _ coldState: ColdBeaconState, filter: () -> AnyRSSIFilter
    ) -> Int {
        let grows = cold.count == cold.capacity
        if grows { cold.reserveCapacity(HotStateTable.grown(cold.capacity)) }
        if keepsFilters, filters.count == filters.capacity {
            filters.reserveCapacity(HotStateTable.grown(filters.capacity))
        }
        hot.append(hotState)
        cold.append(coldState)
        if keepsFilters { filters.append(filter()) }
        if grows { FreedMemory.release(afterGrowingTo: cold.capacity * MemoryLayout<ColdBeaconState>.stride) }
        let slot = hot.count - 1
        let id = coldState.id
        cold.withUnsafeBufferPointer { all in index.insert(id, slot: slot) { all[$0].id } }
        return slot
    }

    /// Removes the beacon at `slot` and returns its identity; the last beacon moves into `slot`.
    mutating func remove(slot: Int) -> BeaconID {
        let id = cold[slot].id
        cold.withUnsafeBufferPointer { all in index.remove(id, slot: slot) { all[$0].id } }
        let last = hot.count - 1
        if slot != last {
            index.move(cold[last].id, from: last, to: slot)
            hot.swapAt(slot, last)
            cold.swapAt(slot, last)
            if keepsFilters { filters.swapAt(slot, last) }
        }
        hot.removeLast()
        cold.removeLast()
        if keepsFilters { filters.removeLast() }
        return id
    }

    /// Moves every table to an allocation of `capacity` records (at least the count) and rebuilds
    /// the index to fit. Allocates; for after a flood.
    mutating func shrink(to capacity: Int) {
        let target = max(capacity, count)
        hot.shrink(to: target)
        var smaller: [ColdBeaconState] = []
        smaller.reserveCapacity(target)
        smaller.append(contentsOf: cold)
        cold = smaller
        if keepsFilters {
            var fewer: [AnyRSSIFilter] = []
            fewer.reserveCapacity(target)
            fewer.append(contentsOf: filters)
            filters = fewer
        }
        cold.withUnsafeBufferPointer { all in index.rebuild(count: all.count) { all[$0].id } }
    }

    /// Heap bytes the tables and the index have reserved, from their capacities (windowed filters'
    /// own sample buffers and allocator overhead not included).
    var reservedBytes: Int {
        index.reservedBytes + hot.capacity * MemoryLayout<HotBeaconState>.stride
            + cold.capacity * MemoryLayout<ColdBeaconState>.stride
            + filters.capacity * MemoryLayout<AnyRSSIFilter>.stride
    }
}
