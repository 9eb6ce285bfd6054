import BeaconCore
import CBeaconPrefetch

/// An open-addressing hash index from ``BeaconCore/BeaconID`` to a slot in a caller's array of
/// tracked beacons: the ranging loop's and the site hub's one table. Buckets hold only the slot
/// (4 bytes), and a probe confirms the key by reading the identity stored in the tracked beacon
/// itself, which the caller reads next anyway.
///
/// Linear probing over a power-of-two table kept at most half full; deletion shifts the
/// following entries back (no tombstones). The hash is a multiply–xorshift mix of the identity's
/// words with a per-index random seed, so crafted identities cannot force collisions across runs.
package struct BeaconIndex: Sendable {
    private static let empty: Int32 = -1
    private var buckets: [Int32]
    private var mask: Int
    /// Entries held.
    package private(set) var count = 0
    private let seed: UInt64

    package init(minimumCapacity: Int = 16) {
        var size = 16
        while size < minimumCapacity * 2 { size *= 2 }
        buckets = Array(repeating: Self.empty, count: size)
        mask = size - 1
        var rng = SystemRandomNumberGenerator()
        seed = rng.next() | 1
    }

    /// Bytes held by the bucket array.
    package var reservedBytes: Int { buckets.capacity * MemoryLayout<Int32>.stride }

    @inline(__always)
    private func bucket(of id: BeaconID) -> Int {
        var h = id.high &* 0x9E37_79B9_7F4A_7C15 ^ seed
        h ^= id.low &* 0xC2B2_AE3D_27D4_EB4F
        h ^= (UInt64(id.tail) << 8 | UInt64(id.kind.rawValue)) &* 0x1656_67B1_9E37_79F9
        h ^= h >> 32
        h &*= 0xD6E8_FEB8_6659_FD93
        h ^= h >> 29
        return Int(truncatingIfNeeded: h) & mask
    }

    /// Asks the processor to start fetching `id`'s home bucket (a hint; changes nothing).
    @inline(__always)
    package func prefetchHome(of id: BeaconID) {
        buckets.withUnsafeBufferPointer { beacon_prefetch($0.baseAddress! + bucket(of: id)) }
    }

    /// The slot stored in `id`'s home bucket (−1 when empty): usually `id`'s own slot, to be
    /// confirmed by the caller. Lets a batch issue all its bucket loads before any comparison.
    @inline(__always)
    package func homeCandidate(of id: BeaconID) -> Int {
        Int(buckets[bucket(of: id)])
    }

    /// The slot of `id`, reading identities through `idAt`.
    @inline(__always)
    package func slot(of id: BeaconID, idAt: (Int) -> BeaconID) -> Int? {
        slot(of: id) { idAt($0) == id }
    }

    /// The slot of `id`, asking `holdsID` whether a candidate slot holds it.
    @inline(__always)
    package func slot(of id: BeaconID, where holdsID: (Int) -> Bool) -> Int? {
        var b = bucket(of: id)
        while true {
            let s = buckets[b]
            if s == Self.empty { return nil }
            if holdsID(Int(s)) { return Int(s) }
            b = (b + 1) & mask
        }
    }

    /// Adds `id` at `slot` (the caller guarantees it is absent).
    package mutating func insert(_ id: BeaconID, slot: Int, idAt: (Int) -> BeaconID) {
        if (count + 1) * 2 > buckets.count { grow(idAt: idAt) }
        var b = bucket(of: id)
        while buckets[b] != Self.empty { b = (b + 1) & mask }
        buckets[b] = Int32(slot)
        count += 1
    }

    /// Points `id`'s entry at a new slot (after the beacon moved in the array).
    package mutating func move(_ id: BeaconID, from old: Int, to new: Int) {
        var b = bucket(of: id)
        while buckets[b] != Int32(old) { b = (b + 1) & mask }
        buckets[b] = Int32(new)
    }

    /// Removes the entry of `id`, which is at `slot`.
    package mutating func remove(_ id: BeaconID, slot: Int, idAt: (Int) -> BeaconID) {
        var hole = bucket(of: id)
        while buckets[hole] != Int32(slot) { hole = (hole + 1) & mask }
        buckets[hole] = Self.empty
        count -= 1
        // Backward-shift: move later entries of the cluster into the hole when their home allows.
        var b = (hole + 1) & mask
        while buckets[b] != Self.empty {
            let home = bucket(of: idAt(Int(buckets[b])))
            // The entry at b may fill the hole if its home is not in (hole, b] cyclically.
            let distanceToB = (b - home) & mask
            let distanceToHole = (hole - home) & mask
            if distanceToHole < distanceToB {
                buckets[hole] = buckets[b]
                buckets[b] = Self.empty
                hole = b
            }
            b = (b + 1) & mask
        }
    }

    /// Rebuilds the table for the `count` slots `0..<count` at the size that many need (after a
    /// fall: a smaller table), keeping the seed.
    package mutating func rebuild(count: Int, idAt: (Int) -> BeaconID) {
        var size = 16
        while size < count * 2 { size *= 2 }
        buckets = Array(repeating: Self.empty, count: size)
        mask = size - 1
        for slot in 0..<count {
            var b = bucket(of: idAt(slot))
            while buckets[b] != Self.empty { b = (b + 1) & mask }
            buckets[b] = Int32(slot)
        }
        self.count = count
    }

    private mutating func grow(idAt: (Int) -> BeaconID) {
        let old = buckets
        buckets = Array(repeating: Self.empty, count: old.count * 2)
        mask = buckets.count - 1
        for s in old where s != Self.empty {
            var b = bucket(of: idAt(Int(s)))
            while buckets[b] != Self.empty { b = (b + 1) & mask }
            buckets[b] = s
        }
    }
}
