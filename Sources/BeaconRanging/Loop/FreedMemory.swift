import CBeaconHeap

/// Hands memory freed by a large table's growth back to the system.
///
/// glibc serves a large allocation from `mmap` only while it is above a threshold that rises to
/// the size of each large block freed; a tracked-state table that grows in steps of an eighth
/// therefore ends up taking its next buffers from the heap, and the buffers it outgrew stay
/// resident (100,000 beacons: about 100 bytes per beacon above what the tables reserve).
/// `malloc_trim` returns those free pages. It walks the heap's free chunks, so it runs only
/// after a growth of at least ``threshold`` bytes: a few dozen times over a loop's life.
enum FreedMemory {
    /// Growths smaller than this leave the freed buffer to the allocator.
    static let threshold = 1 << 20

    /// Releases free heap pages when `grownBytes` (the size of the buffer just allocated) is at
    /// least ``threshold``.
    @inline(__always)
    static func release(afterGrowingTo grownBytes: Int) {
        guard grownBytes >= threshold else { return }
        releaseNow()
    }

    @inline(never)
    private static func releaseNow() {
        _ = beacon_release_free_heap()
    }
}
