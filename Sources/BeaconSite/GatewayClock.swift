/// One gateway's clock as the hub sees it: the offset that maps the gateway's times onto the
/// hub's (`hub = gateway + offset`).
///
/// Each report gives a sample `received − sent` = offset + transit delay. The smallest recent
/// sample is the best estimate (the delay is never negative and is often near its minimum), so
/// the offset is the minimum over a sliding window of the last 64–128 reports (two buckets of
/// 64: a clock that drifts, or a gateway whose clock is stepped, is followed within 128 reports).
struct GatewayClock {
    private var current = Int64.max
    private var previous = Int64.max
    private var countInCurrent = 0
    static let bucketSize = 64

    /// The offset in nanoseconds, or 0 before any report with a receive time.
    var offset: Int64 {
        let best = min(current, previous)
        return best == .max ? 0 : best
    }

    /// Takes the sample of a report sent at `sent` (gateway clock) and received at `received`
    /// (hub clock); returns the updated offset.
    mutating func observe(sent: Int64, received: Int64) -> Int64 {
        let (sample, overflow) = received.subtractingReportingOverflow(sent)
        guard !overflow else { return offset }
        if countInCurrent == Self.bucketSize {
            previous = current
            current = .max
            countInCurrent = 0
        }
        current = min(current, sample)
        countInCurrent += 1
        return offset
    }
}
