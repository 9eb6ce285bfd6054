import BeaconCore

/// The samples of a filter window, bounded by count and by age, kept both in arrival order (to
/// expire the oldest) and in value order (for trimmed means and percentiles).
///
/// Storage is reserved once at construction; adding a sample moves at most `capacity` values and
/// never allocates.
struct SlidingWindow: Sendable {
    /// Maximum number of samples kept.
    let capacity: Int
    /// Samples older than this (relative to the newest sample) are dropped…
    let maxAgeNanoseconds: Int64
    /// …as long as at least this many samples remain.
    let minKept: Int

    private var times: [Int64]
    private var values: [Double]
    /// Index of the oldest sample in `times`/`values` (a ring).
    private var head = 0
    /// The same samples' values, ascending.
    private(set) var sorted: [Double]

    init(capacity: Int, maxAge: Duration, minKept: Int = 0) {
        precondition(capacity > 0, "SlidingWindow needs a positive capacity")
        self.capacity = capacity
        self.maxAgeNanoseconds = maxAge.nanoseconds
        self.minKept = minKept
        times = Array(repeating: 0, count: capacity)
        values = Array(repeating: 0, count: capacity)
        sorted = []
        sorted.reserveCapacity(capacity)
    }

    /// Number of samples in the window.
    var count: Int { sorted.count }

    /// Adds a sample, first dropping samples that are too old or would overflow the capacity.
    mutating func add(_ value: Double, at time: Timestamp) {
        let now = time.nanosecondsSinceEpoch
        while count > minKept, count > 0, now &- times[head] >= maxAgeNanoseconds { removeOldest() }
        if count == capacity { removeOldest() }
        let slot = (head + count) % capacity
        times[slot] = now
        values[slot] = value
        sorted.insert(value, at: insertionIndex(of: value))
    }

    mutating func removeAll() {
        sorted.removeAll(keepingCapacity: true)
        head = 0
    }

    private mutating func removeOldest() {
        let value = values[head]
        head = (head + 1) % capacity
        var low = 0, high = sorted.count
        while low < high { // first index holding `value`
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        sorted.remove(at: low)
    }

    private func insertionIndex(of value: Double) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] <= value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
