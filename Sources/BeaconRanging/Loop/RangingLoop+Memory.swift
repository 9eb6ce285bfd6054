import BeaconCore

extension RangingLoop {
    /// Heap bytes the loop's storage has reserved, from the capacities of its buffers: the
    /// identity index (a power-of-two table of 4-byte slots, at most half full), the hot and cold tracked-state arrays and the reused update buffers. Windowed filters'
    /// sample buffers are not included (the default ARMA filter has none). Allocator overhead
    /// is not included either.
    public var reservedHeapBytes: Int {
        tracked.reservedBytes + update.beacons.capacity * MemoryLayout<RangedBeacon>.stride
            + update.evicted.capacity * MemoryLayout<BeaconID>.stride
    }

    /// Size of the state kept per tracked beacon with the default (ARMA) filter, without the
    /// index entry: the 64-byte record every advertisement touches plus the cold rest. (Other
    /// filters add their own stride, and windowed ones their boxed buffers.)
    public static var trackedBeaconStride: Int {
        MemoryLayout<HotBeaconState>.stride + MemoryLayout<ColdBeaconState>.stride
    }

    /// Size of the per-advertisement record of a tracked beacon (one cache line's worth).
    public static var hotStateStride: Int { MemoryLayout<HotBeaconState>.stride }
}
