import BeaconCore

/// Every tracked beacon's position as a probability over the cells of a `PositionGrid`: a
/// Bayesian grid filter, stepped once per cycle the beacon is heard in.
///
/// - **Motion** (predict): over the time since the beacon's previous step, it either stood still
///   or walked; the walking share spreads the probability by a Gaussian of σ = walking speed ×
///   time (separable, two passes over the box).
/// - **Measurement** (update): each gateway that heard the beacon gives the cycle's mean path
///   loss; in a cell at ρ from it the model expects `10·n·log10(ρ)` plus one offset common to all
///   gateways (a tag in a pocket, a wrong measured power), which is marginalised analytically
///   under its prior. Per cell, with residuals r_g and weights w_g (1/σ_g²):
///   `log L = −½ (Σ w r² − (Σ w r)² / (1/τ² + Σ w))`. A positioned gateway on the beacon's floor
///   that did not hear it is evidence too, weakly: it would have missed the beacon with
///   probability `ε + (1 − ε)·Φ((ρ's loss − (power − sensitivity)) / σ)`.
/// - **Support.** Only a box of cells holds probability (`GridBox`); the box grows by the motion
///   kernel and shrinks to the cells above 1 % of the peak. A beacon whose best cell in the box
///   fits its readings badly (the track was lost: it was carried off while unheard, or the
///   first cycles misled it) starts again from the whole grid.
///
/// The estimate is the posterior mean; its 90 % radius is the distance from the mean that holds
/// 90 % of the probability. Nothing is allocated per step once a beacon's cells exist; rows are
/// processed eight cells at a time (`SIMD8<Float>`), the box's columns in whole vectors.
struct GridTracker {
    typealias Lanes = SIMD8<Float>

    /// One gateway's reading of the beacon in the cycle.
    struct Reading {
        var gateway: Int
        /// The cycle's mean path loss, dB (measured power minus mean RSSI, offset applied).
        var loss: Float
        /// 1/σ² of that loss.
        var weight: Float
    }

    private(set) var grid: PositionGrid
    let settings: GridTracking
    /// The floor plan per floor: index 0 for a beacon on no known floor (the obstacles drawn
    /// for every floor), then one per layout floor (those and the floor's own).
    let plans: [WalkableCells]
    /// Which room's outline holds each cell (`nil`: the site outlines no rooms, or has several
    /// floors).
    let rooms: RoomCells?
    /// The beacons' posteriors, `cellCount` each, in the hub's beacon order.
    var posteriors: [Float] = []
    private(set) var boxes: [GridBox] = []
    /// This step's readings and missing gateways (filled by the caller).
    var readings: [Reading] = []
    var missing: [Int] = []
    /// Per cell: the log-likelihood of the step being taken.
    var logLikelihoods: [Float]
    /// The motion model (predict).
    var motion: GridMotion
    /// Each beacon's recent heading, in the hub's beacon order.
    private(set) var headings: GridHeadings
    var radii: [Float] = Array(repeating: 0, count: GridTracker.radiusBins)
    /// Each room's share of the latest beacon asked (``roomShares(_:floor:roomCount:)``).
    private(set) var shares: [Float] = []
    /// Each beacon's position `settings.lag` steps ago, smoothed (`nil` with `lag: 0`).
    private(set) var smoother: FixedLagSmoother?
    /// log P(miss) by standardised margin, from −4σ to +4σ in 1/16 σ steps.
    let missTable: [Float]

    static let radiusBins = 512
    /// Below this share of the peak, a cell drops out of the box (its probability is set to 0):
    /// 1 %, about 3σ of a Gaussian posterior (10⁻³ stepped a third more cells and placed tags
    /// within 0.01 m of the same; `Docs/Site.md`, "The grid filter").
    static let supportFloor: Float = 1e-2
    /// Misses are weak evidence: a gateway misses a beacon it should hear this often anyway
    /// (scanning windows, collisions, a busy radio).
    static let missFloor = 0.5
    /// Past this much spread in one step (the beacon unheard for long), the track restarts.
    static let maximumSpread = 6.0
    /// The stated 90 % radius over the posterior's, on a floor without walls or blocks, for a tag
    /// that keeps its place: there the posterior is about twice as wide as the error (the model's
    /// σ of 6 dB, the walking spread's blur each cycle), and 0.6 of it holds the truth 90–97 % of
    /// the time on the shop, `site-calibration`, `hall-session` and the real philotuxo walk; a
    /// floor plan cuts the blur, and there the posterior's own radius holds it 90 % of the time
    /// (`Docs/Site.md`, "Its 90 % radius").
    static let openFloorRadiusScale = 0.6
    /// The same for a tag walking at ``walkingPace`` or faster: the filter trails a walker (about
    /// a second on `hall-walks`), which its posterior does not know, and 0.6 of it held the truth
    /// 60–64 % of the time there; with this scale, 88–93 % (`Docs/Site.md`, "A walker's radius").
    static let walkingRadiusScale = 1.2
    /// The pace (``GridHeadings/pace(of:)``, m/s) up to which a tag counts as keeping its place:
    /// a still tag's heading sways with its estimate's jitter. 0.4 m/s of heading at the default
    /// carried share of 0.8.
    static let stillPace = 0.32
    /// The pace (m/s) from which a tag counts as walking: 0.8 m/s of heading at the default
    /// carried share.
    static let walkingPace = 0.64

    /// A tracker over `grid`; `plans` as ``plans`` (empty: every cell walkable), `rooms` as
    /// ``rooms``.
    init(grid: PositionGrid, settings: GridTracking, plans: [WalkableCells] = [], rooms: RoomCells? = nil) {
        self.grid = grid
        self.settings = settings
        self.plans = plans.isEmpty ? [WalkableCells(grid: grid)] : plans
        self.rooms = rooms
        if settings.lag > 0 {
            // A random walk of (walkingSpeed / 2)² m² a second (4 m² at the default): a quarter
            // of the filter's own walking spread over a one-second cycle, and no heading. The
            // smoother's gain grows with it; 4 m² placed the shop best (Docs/Site.md).
            let spread = settings.walkingSpeed / 2
            smoother = FixedLagSmoother(lag: settings.lag, processNoise: spread * spread)
        }
        logLikelihoods = Array(repeating: 0, count: grid.cellCount)
        motion = GridMotion(grid: grid, stillShare: settings.stillShare)
        headings = GridHeadings(
            walkingSpeed: settings.walkingSpeed, stillShare: settings.stillShare, momentum: settings.momentum)
        missTable = (0...128).map { i in
            let u = Double(i - 64) / 16
            return Float(naturalLogarithm(Self.missFloor + (1 - Self.missFloor) * normalCDF(u)))
        }
        readings.reserveCapacity(grid.gatewayCount)
        missing.reserveCapacity(grid.gatewayCount)
    }

    /// Memory per tracked beacon, bytes: its posterior and what ``bytesBesidePosterior(lag:)`` counts.
    var bytesPerBeacon: Int {
        grid.cellCount * MemoryLayout<Float>.stride + Self.bytesBesidePosterior(lag: settings.lag)
    }

    /// A tracked beacon's memory besides its posterior, bytes: its box, heading and smoothing history.
    static func bytesBesidePosterior(lag: Int) -> Int {
        MemoryLayout<GridBox>.stride + MemoryLayout<GridHeadings.Heading>.stride + FixedLagSmoother.bytesPerBeacon(lag: lag)
    }

    /// The cells of the tracked beacons' boxes, on average.
    var averageBoxCells: Double {
        let tracked = boxes.filter { !$0.isEmpty }
        return tracked.isEmpty ? 0 : Double(tracked.reduce(0) { $0 + $1.cellCount }) / Double(tracked.count)
    }

    /// Rebuilds gateway `g`'s path losses (the radio model changed).
    mutating func model(gateway g: Int, antenna: Vector3?, exponent: Double, tagHeight: Double) {
        grid.model(gateway: g, antenna: antenna, exponent: exponent, tagHeight: tagHeight)
    }

    /// The 90 % radius a position states for a posterior radius of `radius90` on `floor` (-1:
    /// none known): on a floor without walls or blocks, ``openFloorScale(pace:)`` of it by beacon
    /// `b`'s pace (`nil`, or no momentum: a tag keeping its place); all of it on a floor with them.
    func statedRadius(_ radius90: Double, floor: Int, beacon b: Int?) -> Double {
        guard plans[plan(onFloor: floor)].isOpen else { return radius90 }
        return radius90 * Self.openFloorScale(pace: b.map { headings.pace(of: $0) } ?? 0)
    }

    /// The stated radius over the posterior's on an open floor for a pace of `pace` m/s:
    /// ``openFloorRadiusScale`` up to ``stillPace``, ``walkingRadiusScale`` from ``walkingPace``,
    /// in proportion between.
    static func openFloorScale(pace: Double) -> Double {
        let walking = min(max((pace - stillPace) / (walkingPace - stillPace), 0), 1)
        return openFloorRadiusScale + (walkingRadiusScale - openFloorRadiusScale) * walking
    }

    /// The index in ``plans`` of `floor`'s plan (-1: none known; a floor without a plan of its
    /// own gets the one for every floor).
    private func plan(onFloor floor: Int) -> Int { floor + 1 < plans.count ? max(floor + 1, 0) : 0 }

    /// Whether beacon `b` has a posterior.
    func isTracking(_ b: Int) -> Bool { b < boxes.count && !boxes[b].isEmpty }

    /// Forgets beacon `b`'s posterior.
    mutating func forget(_ b: Int) {
        smoother?.forget(b)
        guard b < boxes.count, !boxes[b].isEmpty else { return }
        clear(b, box: boxes[b])
        boxes[b] = GridBox()
    }

    /// Beacon `last` takes the place of beacon `b` (which the hub evicted); `last` goes.
    mutating func move(_ last: Int, to b: Int) {
        forget(b)
        smoother?.move(last, to: b)
        if last < boxes.count {
            if last != b {
                let cells = grid.cellCount
                boxes[b] = boxes[last]
                headings[b] = headings[last]
                if !boxes[last].isEmpty {
                    posteriors.withUnsafeMutableBufferPointer { p in
                        for c in 0..<cells { p[b * cells + c] = p[last * cells + c] }
                    }
                    clear(last, box: boxes[last])
                }
            }
            boxes[last] = GridBox()
        }
    }

    /// Steps beacon `b` to `cycle` with ``readings`` and ``missing``; returns its position and 90 %
    /// radius, or `nil` when it has no posterior and fewer than `minimumReadings` readings.
    /// - Parameters:
    ///   - cycleSeconds: the hub's cycle length.
    ///   - offsetPrior: τ of the common offset, dB.
    ///   - missLoss: the path loss past which a gateway cannot hear this beacon (its measured
    ///     power minus the sensitivity), dB.
    ///   - sigma: the model's spread, dB (for misses).
    ///   - floor: the beacon's floor (an index into the layout's floors; -1: none known), whose
    ///     walls and blocks the motion keeps to.
    mutating func step(
        _ b: Int, cycle: Int64, cycleSeconds: Double, minimumReadings: Int, offsetPrior: Double, missLoss: Float,
        sigma: Float, floor: Int = -1
    ) -> (x: Double, y: Double, radius90: Double)? {
        let cells = grid.cellCount
        let plan = plan(onFloor: floor)
        if boxes.count <= b {
            headings.grow(to: b + 1)
            boxes.append(contentsOf: repeatElement(GridBox(), count: b + 1 - boxes.count))
            posteriors.append(contentsOf: repeatElement(0, count: (b + 1) * cells - posteriors.count))
        }
        var box = boxes[b]
        let seconds = Double(cycle - box.cycle) * cycleSeconds
        if box.isEmpty {
            guard readings.count >= minimumReadings else { return nil }
            box = restart(b, cycle: cycle, plan: plan)
        } else if !readings.isEmpty {
            let spread = settings.walkingSpeed * seconds
            if spread > Self.maximumSpread {
                clear(b, box: box)
                box = restart(b, cycle: cycle, plan: plan)
            } else {
                let carried = settings.momentum * seconds / grid.cellSize
                box = predict(
                    b, box: box, spread: spread, drift: (headings[b].vx * carried, headings[b].vy * carried), plan: plan)
            }
        }
        var moments: Moments?
        if !readings.isEmpty {
            box.cycle = cycle
            moments = update(b, box: &box, offsetPrior: offsetPrior, missLoss: missLoss, sigma: sigma)
            if moments == nil {
                // Lost: the best cell in the box misfits; start again from the whole grid.
                clear(b, box: box)
                box = restart(b, cycle: cycle, plan: plan)
                moments = update(b, box: &box, offsetPrior: offsetPrior, missLoss: missLoss, sigma: sigma)
            }
        }
        boxes[b] = box
        let estimated = estimate(b, box: box, moments: moments)
        if let estimated, !readings.isEmpty {
            headings.follow(b, to: (estimated.x, estimated.y), after: seconds)
            smoother?.record(b, cycle: cycle, x: estimated.x, y: estimated.y, radius90: estimated.radius90)
        }
        return estimated
    }

    /// Starts beacon `b`'s track afresh from the whole walkable grid (``start(_:cycle:plan:)``):
    /// no heading, and no history for the smoother.
    private mutating func restart(_ b: Int, cycle: Int64, plan: Int) -> GridBox {
        headings[b] = GridHeadings.Heading()
        smoother?.forget(b)
        return start(b, cycle: cycle, plan: plan)
    }

    /// Computes each of `roomCount` rooms' share of beacon `b`'s posterior (the cells of its
    /// outline) into ``shares``; `false` when no room is outlined or `b` is not tracked.
    mutating func roomShares(_ b: Int, roomCount: Int) -> Bool {
        guard let rooms, isTracking(b) else { return false }
        let cells = rooms.roomOfCell
        if shares.count != roomCount { shares = Array(repeating: 0, count: roomCount) }
        for i in shares.indices { shares[i] = 0 }
        let box = boxes[b]
        let columns = grid.columns
        let base = b * grid.cellCount
        var total: Float = 0
        posteriors.withUnsafeBufferPointer { p in
            cells.withUnsafeBufferPointer { room in
                shares.withUnsafeMutableBufferPointer { shares in
                    for row in Int(box.firstRow)...Int(box.lastRow) {
                        for column in Int(box.firstColumn)...Int(box.lastColumn) {
                            let cell = row * columns + column
                            let value = p[base + cell]
                            total += value
                            let r = Int(room[cell])
                            if r >= 0 { shares[r] += value }
                        }
                    }
                }
            }
        }
        guard total > 0 else { return false }
        for i in shares.indices { shares[i] /= total }
        return true
    }
}
