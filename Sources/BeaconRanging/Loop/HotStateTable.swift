#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The tracked beacons' ``HotBeaconState`` records by slot: an array with value semantics
/// (copy-on-write) whose records each sit in exactly one 64-byte cache line, and which asks for
/// 2 MB pages once it is large (Linux transparent huge pages), so that random lookups among
/// 100,000 beacons cost one cache line and rarely a TLB miss. (`Array` aligns elements to 16
/// bytes only: three records in four would straddle two lines.)
struct HotStateTable: Sendable {
    private var storage = Storage(capacity: 0)

    /// Number of records.
    @inline(__always) var count: Int { storage.count }
    var isEmpty: Bool { storage.count == 0 }
    /// Records the current allocation holds.
    var capacity: Int { storage.capacity }

    subscript(slot: Int) -> HotBeaconState {
        @inline(__always)
        unsafeAddress {
            precondition(slot >= 0 && slot < storage.count, "slot out of range")
            return UnsafePointer(storage.base + slot)
        }
        @inline(__always)
        unsafeMutableAddress {
            precondition(slot >= 0 && slot < storage.count, "slot out of range")
            makeUnique()
            return storage.base + slot
        }
    }

    /// Runs `body` on the record at `slot`, in place.
    @inline(__always)
    mutating func update<R>(_ slot: Int, _ body: (inout HotBeaconState) -> R) -> R {
        precondition(slot >= 0 && slot < storage.count, "slot out of range")
        makeUnique()
        return body(&storage.base[slot])
    }

    mutating func append(_ record: HotBeaconState) {
        if !isKnownUniquelyReferenced(&storage) || storage.count == storage.capacity {
            let full = storage.count == storage.capacity
            storage = storage.copy(capacity: full ? Self.grown(storage.capacity) : storage.capacity)
        }
        (storage.base + storage.count).initialize(to: record)
        storage.count += 1
    }

    /// The capacity after `capacity` when the table is full: an eighth more (at least 16), not
    /// twice as much, so that a large table reserves at most 12.5 % more than it holds. Appends
    /// stay amortized O(1) (each record is copied about eight times over the table's growth),
    /// and new beacons are rare next to advertisements.
    static func grown(_ capacity: Int) -> Int { max(16, capacity + capacity / 8) }

    mutating func swapAt(_ i: Int, _ j: Int) {
        let a = self[i]
        self[i] = self[j]
        self[j] = a
    }

    mutating func removeLast() {
        precondition(storage.count > 0, "removeLast on an empty table")
        makeUnique()
        storage.count -= 1
    }

    /// Calls `body` with the records (valid only during the call).
    @inline(__always)
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<HotBeaconState>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }

    /// Moves the records to an allocation of `capacity` (at least the count).
    mutating func shrink(to capacity: Int) {
        storage = storage.copy(capacity: max(capacity, storage.count))
    }

    @inline(__always)
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { copyStorage() }
    }

    @inline(never)
    private mutating func copyStorage() {
        storage = storage.copy(capacity: storage.capacity)
    }

    /// The allocation. Records are plain values (no references), so copying is a memory copy and
    /// freeing needs no deinitialization.
    private final class Storage: @unchecked Sendable {
        // @unchecked: mutated only through a uniquely referenced `HotStateTable`.
        let base: UnsafeMutablePointer<HotBeaconState>
        let capacity: Int
        var count = 0

        /// Allocations from this size on are 2 MB-aligned and advised to use huge pages.
        static let hugePageBytes = 2 << 20

        init(capacity: Int) {
            precondition(_isPOD(HotBeaconState.self) && MemoryLayout<HotBeaconState>.stride == 64)
            self.capacity = capacity
            let bytes = max(64, capacity * 64)
            let huge = bytes >= Self.hugePageBytes
            let alignment = huge ? Self.hugePageBytes : 64
            let rounded = (bytes + alignment - 1) / alignment * alignment
            var raw: UnsafeMutableRawPointer?
            guard posix_memalign(&raw, alignment, rounded) == 0, let raw else { fatalError("out of memory") }
            #if os(Linux)
            if huge { _ = madvise(raw, rounded, MADV_HUGEPAGE) }
            #endif
            base = raw.bindMemory(to: HotBeaconState.self, capacity: capacity)
        }

        func copy(capacity: Int) -> Storage {
            let new = Storage(capacity: capacity)
            new.base.initialize(from: base, count: count)
            new.count = count
            return new
        }

        deinit { free(base) }
    }
}
