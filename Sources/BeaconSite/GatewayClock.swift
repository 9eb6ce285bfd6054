import BeaconCore

/// One gateway's clock as the hub sees it: the offset that maps the gateway's times onto the
/// hub's (`hub = gateway + offset`), estimated so that no single report can move it.
///
/// Each report gives a sample `received − sent` = offset + transit delay. The delay is never
/// negative and is often near its minimum, so the best estimate is the smallest sample — but a
/// report that claims a time in the future (forged, or from a gateway whose clock was stepped)
/// gives a sample far *below* the rest, and the plain minimum would let that one report shift
/// every later record of the gateway into the past, where it is dropped as stale. So:
///
/// - the last ``windowSize`` samples are kept; their median is the gateway's typical sample;
/// - the offset is the smallest sample within `tolerance` below that median (the least delayed
///   of the consistent ones): fewer than half the window can never move it;
/// - a report whose sample lies more than `tolerance` below the offset claims a time the
///   gateway's other reports contradict, and is refused (``observe(sent:received:)`` says so).
///   Its sample stays in the window, so a clock that really was stepped is followed once half
///   the window agrees with it (32 reports).
struct GatewayClock {
    /// Samples kept.
    static let windowSize = 64
    private var samples: [Int64] = []
    private var next = 0
    private var scratch: [Int64] = []
    /// The offset in nanoseconds, 0 before any report with a receive time.
    private(set) var offset: Int64 = 0
    let toleranceNanoseconds: Int64

    /// A clock whose samples may spread `tolerance` below their median (network jitter).
    init(tolerance: Duration) {
        toleranceNanoseconds = max(1, tolerance.nanoseconds)
    }

    /// Takes the sample of a report sent at `sent` (gateway clock) and received at `received`
    /// (hub clock). Returns the updated offset, or `nil` when the report's time contradicts the
    /// gateway's clock (it claims to be from later than its other reports allow).
    mutating func observe(sent: Int64, received: Int64) -> Int64? {
        let (sample, overflow) = received.subtractingReportingOverflow(sent)
        guard !overflow else { return nil }
        if samples.count < Self.windowSize {
            samples.append(sample)
            scratch.reserveCapacity(Self.windowSize)
        } else {
            samples[next] = sample
        }
        next = (next + 1) % Self.windowSize
        offset = estimate()
        let (floor, below) = offset.subtractingReportingOverflow(toleranceNanoseconds)
        return !below && sample < floor ? nil : offset
    }

    /// The smallest sample no further than the tolerance below the window's (upper) median.
    private mutating func estimate() -> Int64 {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: samples)
        scratch.sort()
        let median = scratch[scratch.count / 2]
        let (floor, below) = median.subtractingReportingOverflow(toleranceNanoseconds)
        guard !below else { return scratch[0] }
        // Sorted: the first sample at or above the floor.
        var low = 0
        var high = scratch.count / 2
        while low < high {
            let mid = (low + high) / 2
            if scratch[mid] < floor { low = mid + 1 } else { high = mid }
        }
        return scratch[low]
    }
}
