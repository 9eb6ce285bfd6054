import BeaconCore
import BeaconSiteReport
import Testing

@testable import BeaconSite

/// The grid filter alone (`GridTracker`), on path losses computed from the model it assumes, and
/// through a `SiteFusion` that has it switched on.
@Suite("Grid filter: a posterior per beacon over the floor")
struct GridTrackerTests {
    /// Four gateways at the corners of a 12 m × 8 m room, 3 m up; tags at 1.2 m.
    static let antennas = [
        Vector3(x: 0, y: 0, z: 3), Vector3(x: 12, y: 0, z: 3), Vector3(x: 0, y: 8, z: 3), Vector3(x: 12, y: 8, z: 3),
    ]
    static let exponent = 2.0
    static let tagHeight = 1.2

    static func tracker(
        settings: GridTracking = GridTracking(walkingSpeed: 2, sensitivity: nil),
        bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) = (-2, -2, 14, 10)
    ) -> GridTracker {
        var tracker = GridTracker(
            grid: PositionGrid(
                bounds: bounds, cellSize: settings.cellSize, maxCells: settings.cellBudget,
                gatewayCount: antennas.count),
            settings: settings)
        for (g, antenna) in antennas.enumerated() {
            tracker.model(gateway: g, antenna: antenna, exponent: exponent, tagHeight: tagHeight)
        }
        return tracker
    }

    /// The path loss the model gives from gateway `g` to (`x`, `y`), plus `error` dB.
    static func loss(_ g: Int, x: Double, y: Double, error: Double = 0) -> Float {
        let a = antennas[g]
        let distance = ((x - a.x) * (x - a.x) + (y - a.y) * (y - a.y) + (a.z - tagHeight) * (a.z - tagHeight)).squareRoot()
        return Float(10 * exponent * logarithm10(distance) + error)
    }

    /// Steps beacon `b` with every gateway's reading of a tag at (`x`, `y`) (each off by the matching `errors`).
    @discardableResult
    static func step(
        _ tracker: inout GridTracker, _ b: Int = 0, x: Double, y: Double, cycle: Int64, errors: [Double] = [0, 0, 0, 0],
        heardBy gateways: [Int] = [0, 1, 2, 3]
    ) -> (x: Double, y: Double, radius90: Double)? {
        tracker.readings.removeAll()
        tracker.missing.removeAll()
        for g in antennas.indices {
            if gateways.contains(g) {
                tracker.readings.append(.init(gateway: g, loss: loss(g, x: x, y: y, error: errors[g]), weight: 1 / 36))
            } else if tracker.settings.sensitivity != nil {
                tracker.missing.append(g)
            }
        }
        // A beacon of measured power −59 dBm, as the hub computes it.
        let missLoss = Float(-59 - (tracker.settings.sensitivity ?? -127))
        return tracker.step(b, cycle: cycle, cycleSeconds: 1, minimumReadings: 3, offsetPrior: 10, missLoss: missLoss, sigma: 6)
    }

    /// Feeds `fusion` every gateway's report of a tag at (`x`, `y`) for each second of `seconds`
    /// (gateways `g0`…`g3`, readings exactly as the model says), closing each cycle; `each` sees
    /// every update.
    static func hear(
        _ fusion: SiteFusion, x: Double, y: Double, seconds: ClosedRange<Int>, each: (RangingUpdate) -> Void = { _ in }
    ) {
        for t in seconds {
            for g in antennas.indices {
                SiteFusionTests.report(fusion, gateway: "g\(g)", at: Double(t), rssi: -59 - Double(loss(g, x: x, y: y)))
            }
            fusion.advance(to: SiteFusionTests.at(Double(t) + 0.5), onUpdate: each)
        }
    }

    static func distance(_ estimate: (x: Double, y: Double, radius90: Double)?, _ x: Double, _ y: Double) -> Double {
        guard let estimate else { return .infinity }
        return ((estimate.x - x) * (estimate.x - x) + (estimate.y - y) * (estimate.y - y)).squareRoot()
    }

    @Test("a tag standing still is found to within a cell, and the 90 % radius narrows as cycles agree")
    func standingStill() throws {
        var tracker = Self.tracker()
        let first = Self.step(&tracker, x: 3, y: 5, cycle: 1)
        var last = first
        for cycle in 2...20 { last = Self.step(&tracker, x: 3, y: 5, cycle: Int64(cycle)) }
        #expect(Self.distance(last, 3, 5) < 0.5, "\(String(describing: last))")
        // From the first cycle's 6 m to under 5 m: the motion model (a person may always walk off)
        // keeps it from shrinking further with 6 dB readings.
        #expect(try #require(last?.radius90) < (try #require(first?.radius90)) * 0.8, "\(String(describing: (first, last)))")
    }

    @Test("on a large floor the posterior's box shrinks to the tag's neighbourhood: a step costs the box, not the grid")
    func boxShrinks() {
        // Without momentum, the box is the posterior's; with it (the default), the heading's
        // sway around a still tag widens the motion kernel by a cell or two.
        for (momentum, share) in [(0.0, 3), (1.0, 2)] {
            var tracker = Self.tracker(
                settings: GridTracking(cellSize: 1, maxCells: 4096, walkingSpeed: 2, sensitivity: nil, momentum: momentum),
                bounds: (-2, -2, 40, 30))
            #expect(tracker.boxes.isEmpty)
            for cycle in 1...20 { Self.step(&tracker, x: 3, y: 5, cycle: Int64(cycle)) }
            #expect(
                tracker.boxes[0].cellCount < tracker.grid.cellCount / share,
                "momentum \(momentum): \(tracker.boxes[0]) of \(tracker.grid.cellCount) cells")
        }
    }

    @Test("a tag walking across the room is followed, within 1.5 m once the track has settled")
    func walking() {
        var tracker = Self.tracker()
        var worst = 0.0
        for cycle in 0..<20 {
            let x = 1 + Double(cycle) * 0.5 // 0.5 m/s
            let estimate = Self.step(&tracker, x: x, y: 4, cycle: Int64(cycle + 1))
            if cycle >= 5 { worst = max(worst, Self.distance(estimate, x, 4)) }
        }
        #expect(worst < 1.5, "worst error after settling: \(worst) m")
    }

    @Test("momentum: a walker is trailed by less when the heading is carried; a tag that stops loses its heading")
    func momentumKeepsUp() throws {
        func walk(momentum: Double) -> (lag: Double, tracker: GridTracker) {
            var tracker = Self.tracker(settings: GridTracking(walkingSpeed: 2, sensitivity: nil, momentum: momentum))
            var lag = 0.0
            for cycle in 0..<16 {
                let x = 1 + Double(cycle) * 0.6
                let estimate = Self.step(&tracker, x: x, y: 4, cycle: Int64(cycle + 1))
                if cycle >= 6 { lag += x - (estimate?.x ?? .nan) }
            }
            return (lag / 10, tracker)
        }
        let randomWalk = walk(momentum: 0)
        var carried = walk(momentum: 1)
        #expect(randomWalk.lag > 0.1, "a random walk trails the walker: \(randomWalk.lag) m")
        #expect(carried.lag < randomWalk.lag / 2, "momentum 1: \(carried.lag) m behind, against \(randomWalk.lag) m")
        #expect(carried.tracker.headings[0].vx > 0.3, "\(carried.tracker.headings[0])")
        // It stops at x = 10 and stands there.
        var last: (x: Double, y: Double, radius90: Double)?
        for cycle in 17...30 { last = Self.step(&carried.tracker, x: 10, y: 4, cycle: Int64(cycle)) }
        let heading = carried.tracker.headings[0]
        #expect((heading.vx * heading.vx + heading.vy * heading.vy).squareRoot() < 0.15, "\(heading)")
        #expect(Self.distance(last, 10, 4) < 0.5, "\(String(describing: last))")
    }

    @Test("a walker states a wider radius than a tag that stands: 1.2 of its posterior's, against 0.6; without momentum, 0.6")
    func walkerStatesWiderRadius() {
        func stated(momentum: Double, speed: Double) -> Double {
            var tracker = Self.tracker(settings: GridTracking(walkingSpeed: 2, sensitivity: nil, momentum: momentum))
            for cycle in 0..<12 { Self.step(&tracker, x: 1 + Double(cycle) * speed, y: 4, cycle: Int64(cycle + 1)) }
            return tracker.statedRadius(5, floor: -1, beacon: 0)
        }
        #expect(abs(stated(momentum: 1, speed: 1) - 6) < 1e-9, "1 m/s: \(stated(momentum: 1, speed: 1)) m")
        #expect(abs(stated(momentum: 1, speed: 0) - 3) < 1e-9, "standing: \(stated(momentum: 1, speed: 0)) m")
        #expect(abs(stated(momentum: 0, speed: 1) - 3) < 1e-9, "no momentum: \(stated(momentum: 0, speed: 1)) m")
    }

    @Test("an offset common to every gateway (a tag in a pocket) does not move the estimate")
    func commonOffset() {
        var plain = Self.tracker()
        var pocket = Self.tracker()
        var a: (x: Double, y: Double, radius90: Double)?
        var b: (x: Double, y: Double, radius90: Double)?
        for cycle in 1...10 {
            a = Self.step(&plain, x: 9, y: 2, cycle: Int64(cycle))
            b = Self.step(&pocket, x: 9, y: 2, cycle: Int64(cycle), errors: [8, 8, 8, 8])
        }
        #expect(Self.distance(a, 9, 2) < 0.5)
        #expect(Self.distance(b, 9, 2) < 0.6, "\(String(describing: b))")
    }

    @Test("a gateway that does not hear the beacon makes the cells near it less likely")
    func missesAreEvidence() {
        // Heard by gateways 1, 2 and 3 only, with readings that fit a tag at (6, 4) — the middle,
        // equally far from all four. Gateway 0 (at the origin) missing pushes the estimate away from it.
        var withMisses = Self.tracker(settings: GridTracking(walkingSpeed: 2, sensitivity: -75))
        var without = Self.tracker(settings: GridTracking(walkingSpeed: 2, sensitivity: nil))
        var a: (x: Double, y: Double, radius90: Double)?
        var b: (x: Double, y: Double, radius90: Double)?
        for cycle in 1...5 {
            a = Self.step(&withMisses, x: 6, y: 4, cycle: Int64(cycle), heardBy: [1, 2, 3])
            b = Self.step(&without, x: 6, y: 4, cycle: Int64(cycle), heardBy: [1, 2, 3])
        }
        let fromGateway0 = { (e: (x: Double, y: Double, radius90: Double)?) in Self.distance(e, 0, 0) }
        #expect(fromGateway0(a) > fromGateway0(b) + 0.2, "with misses \(String(describing: a)), without \(String(describing: b))")
    }

    @Test("a tag carried off while unheard is found again: the lost track restarts from the whole grid")
    func lostTrack() {
        var tracker = Self.tracker()
        for cycle in 1...10 { Self.step(&tracker, x: 1, y: 1, cycle: Int64(cycle)) }
        // Two cycles later (too short for the motion model to reach), at the far corner.
        var estimate: (x: Double, y: Double, radius90: Double)?
        for cycle in 12...15 { estimate = Self.step(&tracker, x: 11, y: 7, cycle: Int64(cycle)) }
        #expect(Self.distance(estimate, 11, 7) < 1, "\(String(describing: estimate))")
    }

    @Test("too few readings and no posterior: no estimate (the hub's cheap path places the beacon)")
    func cheapPath() {
        var tracker = Self.tracker()
        #expect(Self.step(&tracker, x: 3, y: 3, cycle: 1, heardBy: [0, 1]) == nil)
        #expect(!tracker.isTracking(0))
        #expect(Self.step(&tracker, x: 3, y: 3, cycle: 2) != nil)
        // Once tracked, one reading is enough to step.
        #expect(Self.step(&tracker, x: 3, y: 3, cycle: 3, heardBy: [0]) != nil)
    }

    @Test("an evicted beacon's place is taken by the last one, posterior and all")
    func eviction() {
        var tracker = Self.tracker()
        for cycle in 1...8 {
            Self.step(&tracker, 0, x: 2, y: 2, cycle: Int64(cycle))
            Self.step(&tracker, 1, x: 10, y: 6, cycle: Int64(cycle))
        }
        tracker.move(1, to: 0)
        #expect(!tracker.isTracking(1))
        let estimate = Self.step(&tracker, 0, x: 10, y: 6, cycle: 9)
        #expect(Self.distance(estimate, 10, 6) < 0.5, "\(String(describing: estimate))")
    }

    @Test("a large site gets the least coarser cells that keep a tracked beacon's whole state within 4 KiB")
    func stateBound() {
        let settings = GridTracking(walkingSpeed: 2)
        #expect(settings.cellBudget == 993, "(4096 - 16 box - 32 heading - 73 history at lag 2) / 4")
        let small = PositionGrid(bounds: (0, 0, 10, 10), cellSize: 0.5, maxCells: settings.cellBudget, gatewayCount: 1)
        #expect(small.cellSize == 0.5 && small.rows == 20 && small.columns == 24, "whole vectors of 8 columns")
        // 40 m x 30 m: 1.25 m cells make 32 x 24 = 768; any finer side needs 40 columns x 25 rows = 1,000.
        let large = PositionGrid(bounds: (0, 0, 40, 30), cellSize: 0.5, maxCells: settings.cellBudget, gatewayCount: 1)
        #expect(large.cellCount == 768 && large.cellSize >= 1.25 && large.cellSize < 1.2501, "\(large.cellSize)")
        for lag in [0, 2, 10] {
            var set = settings
            set.lag = lag
            let grid = PositionGrid(bounds: (0, 0, 17.4, 17.4), cellSize: 0.5, maxCells: set.cellBudget, gatewayCount: 1)
            let tracker = GridTracker(grid: grid, settings: set)
            #expect(tracker.bytesPerBeacon <= 4096 && tracker.bytesPerBeacon > 4096 - 8 * 4 * grid.rows, "lag \(lag)")
        }
        var capped = settings
        capped.maxCells = 2048
        #expect(capped.cellBudget == 2048, "a set maxCells is the user's choice")
    }

    @Test("a hub positions through the grid by default or as set, and keeps the Kalman path with grid off")
    func throughTheHub() throws {
        let layout = try SiteLayout(
            gateways: Self.antennas.enumerated().map { SiteGateway(id: "g\($0.offset)", room: "room", position: $0.element) })
        var byDefault = SiteFusionConfiguration()
        byDefault.positioning.pathLossExponent = Self.exponent
        byDefault.positioning.tagHeight = Self.tagHeight
        byDefault.calibration.enabled = false
        var set = byDefault
        set.positioning.grid = GridTracking(walkingSpeed: 2)
        var off = byDefault
        off.positioning.gridByDefault = false
        var estimates: [Double] = []
        for configuration in [byDefault, set, off] {
            let fusion = try SiteFusion(layout: layout, configuration: configuration)
            var last: BeaconPosition?
            Self.hear(fusion, x: 4, y: 6, seconds: 1...15) { last = $0.beacons.first?.position ?? last }
            let position = try #require(last)
            estimates.append(((position.x - 4) * (position.x - 4) + (position.y - 6) * (position.y - 6)).squareRoot())
            #expect(
                configuration.positioning.gridByDefault
                    ? fusion.statistics.tracked > 10 && fusion.statistics.multilaterations == 0
                    : fusion.statistics.tracked == 0 && fusion.statistics.multilaterations > 0)
            #expect((fusion.gridCellSize > 0) == configuration.positioning.gridByDefault)
        }
        #expect(estimates[0] < 0.6 && estimates[1] < 0.5, "\(estimates)")
    }
}
