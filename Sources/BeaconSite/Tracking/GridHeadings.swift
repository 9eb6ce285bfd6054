/// Each tracked beacon's heading, in the hub's beacon order: where its estimate was and how fast
/// it has been moving. The grid filter's walking share drifts by it (`hub.position.grid.momentum`).
///
/// An α-β tracker's velocity: after each step it gains ``gain`` of the estimate's surprise per
/// second (where the estimate landed, less where the heading carried it), at most the walking
/// speed. A walker's heading grows until the estimate keeps up; a tag that stops pulls it back to
/// zero. Taking the heading from the estimate's own moves instead kept a still tag drifting (the
/// estimate moved because the heading moved it).
struct GridHeadings {
    /// One beacon's heading: its latest estimate (NaN before any) and its velocity, m/s.
    struct Heading {
        var x = Double.nan
        var y = Double.nan
        var vx = 0.0
        var vy = 0.0
    }

    /// How much of the estimate's surprise (its distance from where the heading carried it, per
    /// second) a step adds to the heading.
    static let gain = 0.5

    private var headings: [Heading] = []
    /// The fastest heading, m/s (``GridTracking/walkingSpeed``).
    let walkingSpeed: Double
    /// The share of a step the heading carries the probability: the walking share times
    /// ``GridTracking/momentum``.
    let carriedShare: Double

    /// Headings no faster than `walkingSpeed`, carrying the walking share (1 − `stillShare`) of
    /// the probability by `momentum` of the heading.
    init(walkingSpeed: Double, stillShare: Double, momentum: Double) {
        self.walkingSpeed = walkingSpeed
        carriedShare = (1 - stillShare) * momentum
    }

    /// Beacon `b`'s heading.
    subscript(b: Int) -> Heading {
        get { headings[b] }
        set { headings[b] = newValue }
    }

    /// How far beacon `b`'s heading carries its estimate per second, m/s: the heading's speed
    /// times ``carriedShare``. The heading of a tag whose estimate moves steadily at u settles at
    /// u / ``carriedShare`` (the correction stops when the carried share of it keeps up), so this
    /// is about u, whatever the still share and momentum. 0 without momentum, and before the
    /// beacon's first step.
    func pace(of b: Int) -> Double {
        guard b >= 0, b < headings.count else { return 0 }
        let heading = headings[b]
        return carriedShare * (heading.vx * heading.vx + heading.vy * heading.vy).squareRoot()
    }

    /// Makes room for beacons up to `count`, each with no heading yet.
    mutating func grow(to count: Int) {
        if headings.count < count { headings.append(contentsOf: repeatElement(Heading(), count: count - headings.count)) }
    }

    /// Corrects beacon `b`'s heading by where its estimate landed, `seconds` after the previous.
    mutating func follow(_ b: Int, to estimate: (x: Double, y: Double), after seconds: Double) {
        var heading = headings[b]
        if !heading.x.isNaN, seconds > 0 {
            let carried = carriedShare * seconds
            heading.vx += Self.gain * (estimate.x - (heading.x + heading.vx * carried)) / seconds
            heading.vy += Self.gain * (estimate.y - (heading.y + heading.vy * carried)) / seconds
            let speed = (heading.vx * heading.vx + heading.vy * heading.vy).squareRoot()
            if speed > walkingSpeed {
                heading.vx *= walkingSpeed / speed
                heading.vy *= walkingSpeed / speed
            }
        }
        heading.x = estimate.x
        heading.y = estimate.y
        headings[b] = heading
    }
}
