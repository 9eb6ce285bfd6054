/// The schedule of pending advertising events, one per beacon: a calendar queue (Brown, 1988).
///
/// Time from `origin` is cut into slots of 2^20 ns (≈ 1 ms) that map onto a ring of 16,384
/// buckets (a "year" of ≈ 17 s); each bucket is an intrusive linked list of beacons. The slot
/// being served is sorted by (time, beacon) into `ready`, so events come out in a total,
/// reproducible order. Inserting is O(1) and, because a beacon is always rescheduled at least one
/// advertising interval (≥ 20 ms) ahead, never touches the slot being served; events more than a
/// year ahead simply wait in their bucket for their year. Nothing allocates after set-up.
struct EventQueue {
    struct Entry {
        var time: Int64
        var beacon: Int32
    }

    static let slotShift: Int64 = 20
    static let bucketCount = 1 << 14

    let origin: Int64
    private var heads: [Int32]
    private var links: [Int32]
    private var times: [Int64]
    /// The due events of the slot being served, sorted latest first (the earliest is `last`).
    private var ready: [Entry] = []
    private var currentSlot: Int64 = 0
    private(set) var count = 0

    /// Creates an empty queue for beacons `0..<capacity`, for times at or after `origin`.
    init(capacity: Int, origin: Int64) {
        self.origin = origin
        heads = Array(repeating: -1, count: Self.bucketCount)
        links = Array(repeating: -1, count: capacity)
        times = Array(repeating: 0, count: capacity)
        ready.reserveCapacity(64)
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    func slot(of time: Int64) -> Int64 { max(0, time &- origin) >> Self.slotShift }

    /// Schedules `beacon` (which must not be scheduled already) at `time`.
    mutating func push(time: Int64, beacon: Int32) {
        count += 1
        insert(time: time, beacon: beacon)
    }

    /// The earliest event, or `nil` when the queue is empty.
    @inline(__always)
    mutating func peek() -> Entry? {
        if ready.isEmpty {
            guard count > 0 else { return nil }
            refill()
        }
        return ready[ready.count - 1]
    }

    /// Reschedules the earliest event (the one ``peek()`` returned) at `time`.
    @inline(__always)
    mutating func replaceTop(time: Int64) {
        let entry = ready.removeLast()
        insert(time: time, beacon: entry.beacon)
    }

    /// Removes the earliest event (the one ``peek()`` returned).
    mutating func removeTop() {
        ready.removeLast()
        count -= 1
    }

    @inline(__always)
    private mutating func insert(time: Int64, beacon: Int32) {
        let target = slot(of: time)
        // Due in the slot being served (or, defensively, in the past): straight into `ready`.
        if target < currentSlot || (servingStarted && target == currentSlot) {
            insertReady(Entry(time: time, beacon: beacon))
            return
        }
        let bucket = Int(target & Int64(Self.bucketCount - 1))
        times[Int(beacon)] = time
        links[Int(beacon)] = heads[bucket]
        heads[bucket] = beacon
    }

    /// Whether the current slot's bucket has already been moved into `ready`.
    private var servingStarted = false

    private mutating func insertReady(_ entry: Entry) {
        ready.append(entry)
        var index = ready.count - 1
        while index > 0, Self.earlier(ready[index - 1], than: entry) {
            ready[index] = ready[index - 1]
            index -= 1
        }
        ready[index] = entry
    }

    @inline(__always)
    static func earlier(_ a: Entry, than b: Entry) -> Bool {
        a.time < b.time || (a.time == b.time && a.beacon < b.beacon)
    }

    /// Moves to the next slot holding due events and sorts them into `ready`.
    private mutating func refill() {
        if servingStarted {
            currentSlot += 1
            servingStarted = false
        }
        while true {
            let bucket = Int(currentSlot & Int64(Self.bucketCount - 1))
            var previous: Int32 = -1
            var beacon = heads[bucket]
            while beacon >= 0 {
                let following = links[Int(beacon)]
                if slot(of: times[Int(beacon)]) == currentSlot {
                    if previous < 0 { heads[bucket] = following } else { links[Int(previous)] = following }
                    insertReady(Entry(time: times[Int(beacon)], beacon: beacon))
                } else {
                    previous = beacon
                }
                beacon = following
            }
            servingStarted = true
            if !ready.isEmpty { return }
            currentSlot += 1
            servingStarted = false
        }
    }
}
