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
///   Its sample never enters the window: refused reports, however many, cannot move the clock.
/// - A clock that really was stepped ahead is followed when *every* report says so: refused
///   reports for ``stepAfter`` of the hub's time, at least ``stepSamples`` of them, agreeing
///   within the tolerance, with no accepted report between. A forger cannot do that while the
///   real gateway keeps reporting: each of its reports ends the run.
struct GatewayClock {
    /// Samples kept.
    static let windowSize = 64
    /// How long refused reports must come alone before the clock is taken as stepped.
    static let stepAfter = Duration.seconds(10)
    /// How many refused reports, at least, make a step.
    static let stepSamples = 8
    private var samples: [Int64] = []
    private var next = 0
    private var scratch: [Int64] = []
    /// The samples of the refused reports since the last accepted one (the latest ``stepSamples``).
    private var refused: [Int64] = []
    /// When the first of ``refused`` was received (hub clock, ns).
    private var refusedSince: Int64?
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
        let (floor, below) = offset.subtractingReportingOverflow(toleranceNanoseconds)
        if !samples.isEmpty, !below, sample < floor {
            return refuse(sample, received: received)
        }
        refusedSince = nil
        take(sample)
        return offset
    }

    /// Notes a refused sample; follows the clock (and returns its new offset) when the refused
    /// reports make a step.
    private mutating func refuse(_ sample: Int64, received: Int64) -> Int64? {
        if refusedSince == nil {
            refusedSince = received
            refused.removeAll(keepingCapacity: true)
            refused.reserveCapacity(Self.stepSamples + 1)
        }
        refused.append(sample)
        if refused.count > Self.stepSamples { refused.removeFirst() }
        guard let since = refusedSince, received &- since >= Self.stepAfter.nanoseconds,
            refused.count == Self.stepSamples, let low = refused.min(), let high = refused.max(),
            high &- low <= 2 &* toleranceNanoseconds
        else { return nil }
        // Every report for that long says the clock moved: the window starts again from them.
        samples.removeAll(keepingCapacity: true)
        next = 0
        refusedSince = nil
        for sample in refused { take(sample) }
        return offset
    }

    /// Puts `sample` in the window and estimates the offset again.
    private mutating func take(_ sample: Int64) {
        if samples.count < Self.windowSize {
            samples.append(sample)
            scratch.reserveCapacity(Self.windowSize)
        } else {
            samples[next] = sample
        }
        next = (next + 1) % Self.windowSize
        offset = estimate()
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
