import BeaconCore

/// The fusion's table from a beacon's identity to its index: what `[BeaconID: Int]` does, at a
/// fraction of its cost per lookup (one per record filed).
///
/// Open addressing with linear probing, at most half full, deletions by backward shift (no
/// tombstones). The hash multiplies the identity's words with seeds drawn at random per table
/// (wyhash's mixing step), so that the identities a network sends cannot be chosen to collide.
struct BeaconIndex {
    private var keys: [BeaconID]
    private var values: [Int]
    /// `values[i] == Self.empty`: slot `i` holds nothing.
    private static let empty = -1
    private var mask: Int
    private var shift: UInt64
    private let seeds: (UInt64, UInt64, UInt64, UInt64)
    /// Entries held.
    private(set) var count = 0

    init() {
        var random = SystemRandomNumberGenerator()
        seeds = (random.next(), random.next(), random.next(), random.next())
        let capacity = 16
        keys = Array(repeating: .iBeacon(uuidHigh: 0, uuidLow: 0, major: 0, minor: 0), count: capacity)
        values = Array(repeating: Self.empty, count: capacity)
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

    /// The index of `id`, or `nil`; setting `nil` removes it.
    subscript(id: BeaconID) -> Int? {
        @inline(__always)
        get {
            var i = home(id)
            while true {
                let value = values[i]
                if value == Self.empty { return nil }
                if keys[i] == id { return value }
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
        while values[i] != Self.empty {
            if keys[i] == id {
                values[i] = value
                return
            }
            i = (i + 1) & mask
        }
        keys[i] = id
        values[i] = value
        count += 1
        if count * 2 > values.count { grow() }
    }

    private mutating func remove(_ id: BeaconID) {
        var i = home(id)
        while true {
            if values[i] == Self.empty { return }
            if keys[i] == id { break }
            i = (i + 1) & mask
        }
        count -= 1
        // Backward shift: move later entries of the run into the hole when their home allows.
        var hole = i
        var j = i
        while true {
            j = (j + 1) & mask
            if values[j] == Self.empty { break }
            let h = home(keys[j])
            // `h` lies cyclically in (hole, j]: the entry must stay.
            let stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j)
            if !stays {
                keys[hole] = keys[j]
                values[hole] = values[j]
                hole = j
            }
        }
        values[hole] = Self.empty
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        let capacity = values.count * 2
        keys = Array(repeating: keys[0], count: capacity)
        values = Array(repeating: Self.empty, count: capacity)
        mask = capacity - 1
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        count = 0
        for i in oldValues.indices where oldValues[i] != Self.empty { insert(oldKeys[i], oldValues[i]) }
    }
}
