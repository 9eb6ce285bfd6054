import BeaconCore

extension RangingLoop {
    /// Heap bytes the loop's storage has reserved, from the capacities of its buffers: the
    /// identity index (a power-of-two table of 4-byte slots, at most half full), the tracked-beacon array and the reused update buffers. Windowed filters'
    /// sample buffers are not included (the default ARMA filter has none). Allocator overhead
    /// is not included either.
    public var reservedHeapBytes: Int {
        index.reservedBytes + beacons.capacity * MemoryLayout<TrackedBeacon>.stride
            + update.beacons.capacity * MemoryLayout<RangedBeacon>.stride
            + update.evicted.capacity * MemoryLayout<BeaconID>.stride
    }

    /// Size of the state kept per tracked beacon (without the index entry).
    public static var trackedBeaconStride: Int { MemoryLayout<TrackedBeacon>.stride }
}
