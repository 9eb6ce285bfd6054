import BeaconCore
import CBeaconPrefetch

/// The fusion's table from a beacon's identity to its index: what `[BeaconID: Int]` does, at a
/// fraction of its cost per lookup (one per record filed).
///
/// Open addressing with linear probing, at most half full, deletions by backward shift (no
/// tombstones). The hash multiplies the identity's words with seeds drawn at random per table
/// (wyhash's mixing step), so that the identities a network sends cannot be chosen to collide.
struct BeaconIndex {
    /// An identity and its index side by side: a lookup reads one cache line.
    private struct Entry {
        var id: BeaconID
        /// `Self.empty`: the slot holds nothing.
        var value: Int
    }

    private static let empty = -1
    private var entries: [Entry]
    private var mask: Int
    private var shift: UInt64
    private let seeds: (UInt64, UInt64, UInt64, UInt64)
    /// Entries held.
    private(set) var count = 0

    init() {
        var random = SystemRandomNumberGenerator()
        seeds = (random.next(), random.next(), random.next(), random.next())
        let capacity = 16
        entries = Array(
            repeating: Entry(id: .iBeacon(uuidHigh: 0, uuidLow: 0, major: 0, minor: 0), value: Self.empty), count: capacity)
        mask = capacity - 1
        shift = UInt64(64 - capacity.trailingZeroBitCount)
    }

    @inline(__always)
    private func home(_ id: BeaconID) -> Int {
        let a = (id.high ^ seeds.0).multipliedFullWidth(by: id.low ^ seeds.1)
        let b = (UInt64(id.tail) << 8 | UInt64(id.kind.rawValue) ^ seeds.2).multipliedFullWidth(by: seeds.3)
        let h = (a.high ^ a.low) ^ (b.high ^ b.low)
        return Int(truncatingIfNeeded: (h &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Calls `body` with a function that starts fetching the memory a lookup of an identity
    /// reads first (a hint: nothing changes).
    @inline(__always)
    func withPrefetch(_ body: ((BeaconID) -> Void) -> Void) {
        entries.withUnsafeBufferPointer { entries in
            body { id in beacon_prefetch(entries.baseAddress! + home(id)) }
        }
    }

    /// The index of `id`, or `nil`; setting `nil` removes it.
    subscript(id: BeaconID) -> Int? {
        @inline(__always)
        get {
            var i = home(id)
            while true {
                let entry = entries[i]
                if entry.value == Self.empty { return nil }
                if entry.id == id { return entry.value }
                i = (i + 1) & mask
            }
        }
        set {
            if let newValue {
                insert(id, newValue)
            } else {
                remove(id)
            }
        }
    }

    private mutating func insert(_ id: BeaconID, _ value: Int) {
        var i = home(id)
        while entries[i].value != Self.empty {
            if entries[i].id == id {
                entries[i].value = value
                return
            }
            i = (i + 1) & mask
        }
        entries[i] = Entry(id: id, value: value)
        count += 1
        if count * 2 > entries.count { grow() }
    }

    private mutating func remove(_ id: BeaconID) {
        var i = home(id)
        while true {
            if entries[i].value == Self.empty { return }
            if entries[i].id == id { break }
            i = (i + 1) & mask
        }
        count -= 1
        // Backward shift: move later entries of the run into the hole when their home allows.
        var hole = i
        var j = i
        while true {
            j = (j + 1) & mask
            if entries[j].value == Self.empty { break }
            let h = home(entries[j].id)
            // `h` lies cyclically in (hole, j]: the entry must stay.
            let stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j)
            if !stays {
                entries[hole] = entries[j]
                hole = j
            }
        }
        entries[hole].value = Self.empty
    }

    private mutating func grow() {
        let old = entries
        let capacity = entries.count * 2
        entries = Array(repeating: Entry(id: old[0].id, value: Self.empty), count: capacity)
        mask = capacity - 1
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        count = 0
        for entry in old where entry.value != Self.empty { insert(entry.id, entry.value) }
    }
}
