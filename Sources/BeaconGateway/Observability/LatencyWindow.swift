import BeaconCore

/// The latencies of one sink's latest deliveries: those of the last `length` of time, at most
/// `capacity` of them (the oldest go first), with their percentiles on demand.
struct LatencyWindow: Sendable {
    /// How far back a delivery counts.
    let length: Duration
    /// The most deliveries kept.
    let capacity: Int
    private var times: [Timestamp] = []
    private var seconds: [Double] = []
    /// The index of the oldest delivery still in the window (the ones before are dropped lazily).
    private var head = 0

    init(length: Duration, capacity: Int = 10_000) {
        self.length = length
        self.capacity = max(1, capacity)
    }

    /// The deliveries in the window.
    var count: Int { times.count - head }

    /// Adds a delivery confirmed at `time` after `latency` seconds, and drops what the window has
    /// left behind.
    mutating func add(_ latency: Double, at time: Timestamp) {
        times.append(time)
        seconds.append(latency)
        expire(before: time)
    }

    /// Drops the deliveries older than the window as of `now`, and the oldest past ``capacity``.
    mutating func expire(before now: Timestamp) {
        let cutoff = now - length
        while head < times.count, times[head] < cutoff || times.count - head > capacity { head += 1 }
        // Compact once the dropped part outgrows the kept one: amortised O(1) per delivery.
        if head > 64, head * 2 > times.count {
            times.removeFirst(head)
            seconds.removeFirst(head)
            head = 0
        }
    }

    /// The latency at `fraction` (0…1) by nearest rank, or `nil` when the window is empty.
    func percentile(_ fraction: Double) -> Double? {
        guard count > 0 else { return nil }
        let sorted = seconds[head...].sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
