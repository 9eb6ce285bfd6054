import BeaconCore

extension RangingLoop {
    /// Heap bytes the loop's storage has reserved, from the capacities of its buffers: the
    /// identity index (hash table: a power-of-two number of buckets of key + slot, plus one bit of
    /// metadata each), the tracked-beacon array and the reused update buffers. Windowed filters'
    /// sample buffers are not included (the default ARMA filter has none). Allocator overhead
    /// is not included either.
    public var reservedHeapBytes: Int {
        var buckets = 1
        while buckets * 3 / 4 < slots.capacity { buckets *= 2 }
        let index = buckets * (MemoryLayout<BeaconID>.stride + MemoryLayout<Int>.stride) + buckets / 8
        return index + beacons.capacity * MemoryLayout<TrackedBeacon>.stride
            + update.beacons.capacity * MemoryLayout<RangedBeacon>.stride
            + update.evicted.capacity * MemoryLayout<BeaconID>.stride
    }

    /// Size of the state kept per tracked beacon (without the index entry).
    public static var trackedBeaconStride: Int { MemoryLayout<TrackedBeacon>.stride }
}
