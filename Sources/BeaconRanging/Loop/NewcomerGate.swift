import BeaconCore

/// The beacons a cycle brought in, against ``RangingConfiguration/maxNewPerCycle``: under a flood
/// of identities the ranging loop tracks at most that many new beacons a cycle, and once the
/// cycle is full a louder newcomer may take the place of the weakest one admitted (the loop
/// evicts that one, unless it has entered a region already).
///
/// Holds no more than the cap, reserved on the first admission (at most 4,096 up front); emptied,
/// keeping its buffer, when a cycle closes.
struct NewcomerGate: Sendable {
    /// One admitted newcomer and the RSSI it came with (`Int8.min` when it came without one).
    struct Newcomer: Sendable, Equatable {
        let id: BeaconID
        let rssi: Int8
    }

    /// New beacons admitted per cycle at most.
    let capacity: Int
    /// This cycle's newcomers: in the order admitted until one is displaced, whose place then goes
    /// to the last one.
    private(set) var newcomers: [Newcomer] = []

    /// A gate admitting `capacity` new beacons a cycle.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Whether this cycle has admitted its ``capacity`` of new beacons.
    var isFull: Bool { newcomers.count >= capacity }

    /// Admits `id`, heard at `rssi` (the caller has checked ``isFull`` or made room).
    mutating func admit(_ id: BeaconID, rssi: Int8) {
        if newcomers.capacity == 0 { newcomers.reserveCapacity(min(capacity, 4096)) }
        newcomers.append(Newcomer(id: id, rssi: rssi))
    }

    /// The position of the newcomer a beacon heard at `rssi` would displace: the quietest one
    /// quieter than `rssi` (of equally quiet ones, the first in ``newcomers``: the earliest
    /// admitted until a displacement has reordered them), or `nil` when none is.
    func weakest(quieterThan rssi: Int8) -> Int? {
        var weakest: Int?
        for (i, newcomer) in newcomers.enumerated() where newcomer.rssi < rssi {
            if let w = weakest, newcomers[w].rssi <= newcomer.rssi { continue }
            weakest = i
        }
        return weakest
    }

    /// The newcomer at `position`.
    subscript(position: Int) -> Newcomer { newcomers[position] }

    /// Forgets the newcomer at `position` (displaced); the last one takes its place.
    mutating func remove(at position: Int) {
        newcomers.swapAt(position, newcomers.count - 1)
        newcomers.removeLast()
    }

    /// Starts a new cycle: no newcomers, the buffer kept.
    mutating func startCycle() {
        newcomers.removeAll(keepingCapacity: true)
    }

    /// Gives the buffer back (after a flood).
    mutating func releaseMemory() {
        newcomers = []
    }
}
