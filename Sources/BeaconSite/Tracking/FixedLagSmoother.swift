/// A fixed-lag smoother over the grid filter's estimates: each beacon's position `lag` steps
/// ago, decided again with the readings that came after it.
///
/// The filter's posterior at a step knows only the readings up to that step; a walker's later
/// readings also tell where it was. The smoother keeps each beacon's last `lag + 1` estimates —
/// the posterior's mean and its spread (σ² = (radius90 / 2.146)², a round Gaussian) — and runs a
/// Rauch–Tung–Striebel pass back over them under a random walk whose variance grows by
/// ``processNoise`` m² per second. It is the Gaussian summary of a grid smoother: 24 bytes a step
/// instead of a posterior a step (`Docs/Site.md`, "The smoothed position").
///
/// Only steps with readings are kept; a restarted track starts the history again. Nothing is
/// allocated per step once a beacon's history exists.
struct FixedLagSmoother {
    /// One step of the filter: its cycle, mean and variance (m², per axis).
    struct Step {
        var cycle: Int64
        var x: Float
        var y: Float
        var variance: Float
    }

    /// How many steps late the smoothed position is (at least 1).
    let lag: Int
    /// The random walk's variance per second, m² (each axis).
    let processNoise: Double
    /// Each beacon's history, oldest first: `lag + 1` slots a beacon, in the hub's beacon order.
    private var history: [Step] = []
    /// How many slots of each beacon's history are filled.
    private var counts: [UInt8] = []

    /// `radius90` of a round Gaussian over σ: √(2 ln 10).
    static let radiusPerSigma: Float = 2.146

    /// A smoother `lag` steps late (1 or more) with a random walk of `processNoise` m² per second.
    init(lag: Int, processNoise: Double) {
        precondition(lag >= 1, "a fixed-lag smoother is at least one step late")
        self.lag = lag
        self.processNoise = processNoise
    }

    /// Memory per beacon, bytes.
    var bytesPerBeacon: Int { Self.bytesPerBeacon(lag: lag) }

    /// Memory per beacon at `lag`, bytes: `lag + 1` steps and their count (none at `lag: 0`, which
    /// keeps no smoother).
    static func bytesPerBeacon(lag: Int) -> Int {
        lag > 0 ? (lag + 1) * MemoryLayout<Step>.stride + MemoryLayout<UInt8>.stride : 0
    }

    /// Appends beacon `b`'s estimate at `cycle` (the filter's step with readings).
    mutating func record(_ b: Int, cycle: Int64, x: Double, y: Double, radius90: Double) {
        let width = lag + 1
        if counts.count <= b {
            counts.append(contentsOf: repeatElement(0, count: b + 1 - counts.count))
            history.append(
                contentsOf: repeatElement(Step(cycle: 0, x: 0, y: 0, variance: 0), count: (b + 1) * width - history.count))
        }
        let base = b * width
        var count = Int(counts[b])
        if count == width {
            for i in 0..<(width - 1) { history[base + i] = history[base + i + 1] }
            count -= 1
        }
        let sigma = Float(radius90) / Self.radiusPerSigma
        history[base + count] = Step(cycle: cycle, x: Float(x), y: Float(y), variance: sigma * sigma)
        counts[b] = UInt8(count + 1)
    }

    /// Beacon `b`'s smoothed position `lag` steps before its newest, if that newest is `cycle`
    /// and `lag` steps came before it: the step's cycle, its mean, and its 90 % radius.
    func smoothed(_ b: Int, at cycle: Int64, cycleSeconds: Double) -> (cycle: Int64, x: Double, y: Double, radius90: Double)? {
        let width = lag + 1
        guard b < counts.count, Int(counts[b]) == width else { return nil }
        let base = b * width
        let newest = history[base + lag]
        guard newest.cycle == cycle else { return nil }
        var x = newest.x
        var y = newest.y
        var variance = newest.variance
        for i in stride(from: lag - 1, through: 0, by: -1) {
            let step = history[base + i]
            let seconds = Float(Double(history[base + i + 1].cycle - step.cycle) * cycleSeconds)
            let predicted = step.variance + Float(processNoise) * seconds
            let gain = predicted > 0 ? step.variance / predicted : 0
            x = step.x + gain * (x - step.x)
            y = step.y + gain * (y - step.y)
            variance = step.variance + gain * gain * (variance - predicted)
        }
        let oldest = history[base]
        return (oldest.cycle, Double(x), Double(y), Double(max(variance, 0).squareRoot() * Self.radiusPerSigma))
    }

    /// Forgets beacon `b`'s history (its track restarted or ended).
    mutating func forget(_ b: Int) {
        if b < counts.count { counts[b] = 0 }
    }

    /// Beacon `last`'s history takes the place of beacon `b`'s (the hub evicted `b`); `last`'s goes.
    mutating func move(_ last: Int, to b: Int) {
        forget(b)
        guard last < counts.count, b < counts.count else { return }
        if last != b {
            let width = lag + 1
            for i in 0..<width { history[b * width + i] = history[last * width + i] }
            counts[b] = counts[last]
        }
        counts[last] = 0
    }
}
