import BeaconCore
import BeaconSiteReport
import Testing

@testable import BeaconSite

/// The grid filter on a floor with walls and blocks (`SiteObstacle`, `WalkableCells`): its
/// motion keeps to the walkable cells, and a tag in an aisle is placed in the aisle.
@Suite("Grid filter: the floor plan as evidence")
struct GridTrackerFloorPlanTests {
    /// The grid of `GridTrackerTests` (−2…14 × −2…10 m, 0.5 m cells) with `obstacles` drawn.
    static func tracker(
        _ obstacles: [SiteObstacle], settings: GridTracking = GridTracking(sensitivity: nil, momentum: 0)
    ) -> GridTracker {
        let open = GridTrackerTests.tracker(settings: settings)
        var tracker = GridTracker(
            grid: open.grid, settings: settings, plans: [WalkableCells(grid: open.grid, obstacles: obstacles)])
        for (g, antenna) in GridTrackerTests.antennas.enumerated() {
            tracker.model(
                gateway: g, antenna: antenna, exponent: GridTrackerTests.exponent, tagHeight: GridTrackerTests.tagHeight)
        }
        return tracker
    }

    /// Beacon 0's probability in the cells where `inside` holds for the cell's centre.
    static func mass(_ tracker: GridTracker, where inside: (Double, Double) -> Bool) -> Double {
        let grid = tracker.grid
        var total = 0.0
        for row in 0..<grid.rows {
            for column in 0..<grid.columns where inside(grid.x(column: column), grid.y(row: row)) {
                total += Double(tracker.posteriors[row * grid.columns + column])
            }
        }
        return total
    }

    static let wallAtSix = SiteObstacle(.wall([SIMD2(6, -5), SIMD2(6, 15)]))

    /// Pace (m/s) → the stated radius over the posterior's on an open floor, worked out from 0.6
    /// up to 0.32 m/s, 1.2 from 0.64 m/s, in proportion between.
    static let scaleByPace: [(pace: Double, scale: Double)] = [
        (0, 0.6), (0.32, 0.6), (0.4, 0.75), (0.48, 0.9), (0.56, 1.05), (0.64, 1.2), (1.5, 1.2),
    ]

    @Test(
        "on an open floor the stated radius widens with the tag's pace: 0.6 of the posterior's while still, 1.2 walking",
        arguments: scaleByPace)
    func scaleWidensWithPace(pace: Double, scale: Double) {
        #expect(abs(GridTracker.openFloorScale(pace: pace) - scale) < 1e-12, "\(pace) m/s")
    }

    @Test(
        "a tag that stands states 0.6 of its posterior's 90 % radius on an open floor; on a floor with walls or blocks, walking or not, all of it"
    )
    func statedRadius() throws {
        let open = GridTrackerTests.tracker()
        #expect(abs(open.statedRadius(5, floor: -1, beacon: nil) - 5 * GridTracker.openFloorRadiusScale) < 1e-12)
        #expect(GridTracker.openFloorRadiusScale == 0.6)
        var walled = Self.tracker([Self.wallAtSix], settings: GridTracking(walkingSpeed: 2, sensitivity: nil, momentum: 1))
        #expect(walled.statedRadius(5, floor: -1, beacon: nil) == 5)
        // A walker on the walled floor (1 m/s along the wall's west side): still all of it.
        for cycle in 0..<10 { GridTrackerTests.step(&walled, x: 3, y: -1 + Double(cycle), cycle: Int64(cycle + 1)) }
        #expect(walled.headings.pace(of: 0) > GridTracker.walkingPace, "\(walled.headings[0])")
        #expect(walled.statedRadius(5, floor: -1, beacon: 0) == 5)
        // Through a hub on an open floor: the presence's radius is the scaled posterior's.
        let layout = try SiteLayout(
            gateways: GridTrackerTests.antennas.enumerated().map {
                SiteGateway(id: "g\($0.offset)", room: "room", position: $0.element)
            })
        var configuration = SiteFusionConfiguration()
        configuration.positioning.pathLossExponent = GridTrackerTests.exponent
        configuration.positioning.tagHeight = GridTrackerTests.tagHeight
        configuration.calibration.enabled = false
        let fusion = try SiteFusion(layout: layout, configuration: configuration)
        var last: BeaconPosition?
        GridTrackerTests.hear(fusion, x: 4, y: 6, seconds: 1...8) { last = $0.beacons.first?.position ?? last }
        var tracker = try #require(fusion.positioner.gridTracker)
        let box = tracker.boxes[0]
        let estimate = tracker.estimate(0, box: box, moments: nil)
        let posterior = try #require(estimate)
        let stated = try #require(last).radius90
        #expect(abs(stated - 0.6 * posterior.radius90) < 0.01, "stated \(stated) m, posterior \(posterior.radius90) m")
    }

    @Test("a new track starts spread over the walkable cells only: none inside a block")
    func startsOnWalkableCells() {
        let block = SiteObstacle(.block([SIMD2(2, 2), SIMD2(10, 2), SIMD2(10, 6), SIMD2(2, 6)]))
        var tracker = Self.tracker([block])
        tracker.posteriors = Array(repeating: 0, count: tracker.grid.cellCount)
        _ = tracker.start(0, cycle: 1)
        #expect(Self.mass(tracker) { x, y in x > 2 && x < 10 && y > 2 && y < 6 } == 0)
        #expect(abs(Self.mass(tracker) { _, _ in true } - 1) < 1e-3)
        let open = Self.tracker([])
        #expect(tracker.plans[0].walkableCount < open.plans[0].walkableCount - 100, "the block's cells are taken out")
    }

    @Test("the motion model moves no probability across a wall, and loses none against it")
    func motionStopsAtWalls() {
        var tracker = Self.tracker([Self.wallAtSix])
        // A tag found west of the wall, then unheard for 2.5 s: a 5 m spread, far past the wall.
        for cycle in 1...6 { GridTrackerTests.step(&tracker, x: 4.5, y: 4, cycle: Int64(cycle)) }
        let westBefore = Self.mass(tracker) { x, _ in x < 6 }
        // (The update left out the cells below 1 % of the peak: the whole is a little under 1.)
        let totalBefore = Self.mass(tracker) { _, _ in true }
        _ = tracker.predict(0, box: tracker.boxes[0], spread: 5)
        #expect(westBefore > 0.9, "the readings placed it west of the wall: \(westBefore)")
        #expect(abs(Self.mass(tracker) { x, _ in x < 6 } - westBefore) < 1e-4, "nothing crossed the wall either way")
        #expect(abs(Self.mass(tracker) { _, _ in true } - totalBefore) < 1e-4, "nothing was lost")
        // Without the wall the same spread carries a good share across.
        var open = Self.tracker([])
        for cycle in 1...6 { GridTrackerTests.step(&open, x: 4.5, y: 4, cycle: Int64(cycle)) }
        let openWestBefore = Self.mass(open) { x, _ in x < 6 }
        _ = open.predict(0, box: open.boxes[0], spread: 5)
        #expect(Self.mass(open) { x, _ in x < 6 } < openWestBefore - 0.1)
    }

    @Test("probability goes round a wall's end: a wall with a gap lets the tag through, in steps")
    func goesRoundAWallsEnd() {
        // The wall stops 2 m short of the room's north side (y = 8): a door at 6…8.
        var tracker = Self.tracker([SiteObstacle(.wall([SIMD2(6, -5), SIMD2(6, 6)]))])
        for cycle in 1...6 { GridTrackerTests.step(&tracker, x: 4.5, y: 7, cycle: Int64(cycle)) }
        var box = tracker.boxes[0]
        for _ in 0..<4 { box = tracker.predict(0, box: box, spread: 2) }
        #expect(Self.mass(tracker) { x, y in x > 6.25 && y > 6.25 } > 0.05, "through the door")
        // South of the door, east of the wall, it arrives only by going round: less than through the door.
        #expect(Self.mass(tracker) { x, y in x > 6.25 && y < 3 } < Self.mass(tracker) { x, y in x > 6.25 && y > 6.25 })
    }

    @Test("a walled room lets a tag's probability out only through its door; a sealed one lets none out")
    func walledRoomLeavesByItsDoor() {
        // A room 0…6 × 0…6 m, with a door on its east wall at y = 5, or none; a tag found at
        // (4, 4) and known to be in the room, then unheard for a second (a 2 m spread). What the
        // spread moves out of the room, in all and past its west and south walls:
        func leaves(doors: [SiteDoor]?) -> (out: Double, westOrSouth: Double) {
            let room = SiteRoomOutline(
                room: "office", corners: SiteRoomOutline.rectangle(SIMD2(0, 0), SIMD2(6, 6)), doors: doors)
            var tracker = Self.tracker(room.walls.map { SiteObstacle(.wall($0)) })
            for cycle in 1...6 { GridTrackerTests.step(&tracker, x: 4, y: 4, cycle: Int64(cycle)) }
            // All of it in the room (what the start left outside taken away), then spread.
            let grid = tracker.grid
            for row in 0..<grid.rows {
                for column in 0..<grid.columns where !room.encloses(SIMD2(grid.x(column: column), grid.y(row: row))) {
                    tracker.posteriors[row * grid.columns + column] = 0
                }
            }
            let total = Float(Self.mass(tracker) { _, _ in true })
            for c in 0..<grid.cellCount { tracker.posteriors[c] /= total }
            _ = tracker.predict(0, box: tracker.boxes[0], spread: 2)
            return (
                Self.mass(tracker) { x, y in !room.encloses(SIMD2(x, y)) }, Self.mass(tracker) { x, y in x < -0.25 || y < -0.25 }
            )
        }
        let sealed = leaves(doors: [])
        #expect(abs(sealed.out) < 1e-5, "nothing leaves a room without a door: \(sealed.out)")
        let door = leaves(doors: [SiteDoor(center: SIMD2(6, 5), width: 1.5)])
        #expect(door.out > 0.005, "some leaves through the door: \(door.out)")
        #expect(abs(door.westOrSouth) < 1e-5, "none through the other walls: \(door.westOrSouth)")
        // Without walls the same spread takes more out, all round.
        let open = leaves(doors: nil)
        #expect(open.out > door.out + 0.02)
        #expect(open.westOrSouth > 1e-3)
    }

    @Test("a tag walking along an aisle between blocks is placed nearer the truth with the plan than without it")
    func aisleBeatsOpenFloor() {
        // An aisle y ∈ [3, 5] between two blocks; the tag walks along it at 1 m/s, its readings
        // off by a fixed few dB per gateway, as a real site's are: the south side's receivers
        // hot, the north side's deaf, which pulls an open floor's estimate south of the aisle.
        let blocks = [
            SiteObstacle(.block([SIMD2(-5, -5), SIMD2(15, -5), SIMD2(15, 3), SIMD2(-5, 3)])),
            SiteObstacle(.block([SIMD2(-5, 5), SIMD2(15, 5), SIMD2(15, 12), SIMD2(-5, 12)])),
        ]
        func meanError(_ obstacles: [SiteObstacle]) -> Double {
            var tracker = Self.tracker(obstacles, settings: GridTracking(sensitivity: nil))
            var errors: [Double] = []
            for cycle in 1...10 {
                let x = 1.0 + Double(cycle)
                let estimate = GridTrackerTests.step(&tracker, x: x, y: 4, cycle: Int64(cycle), errors: [-4, -4, 4, 4])
                errors.append(GridTrackerTests.distance(estimate, x, 4))
            }
            return errors.reduce(0, +) / Double(errors.count)
        }
        let planned = meanError(blocks)
        let open = meanError([])
        #expect(planned < open * 0.8, "with the plan \(planned) m, without \(open) m")
    }

    @Test("a hub tracks through the grid filter with a floor plan or without one, unless told grid off")
    func floorPlanTurnsTheGridOn() throws {
        let gateways = GridTrackerTests.antennas.enumerated().map {
            SiteGateway(id: "g\($0.offset)", room: "room", position: $0.element)
        }
        let block = SiteObstacle(.block([SIMD2(6, 0), SIMD2(8, 0), SIMD2(8, 3), SIMD2(6, 3)]))
        let planned = try SiteLayout(gateways: gateways, obstacles: [block])
        let open = try SiteLayout(gateways: gateways)
        var defaults = SiteFusionConfiguration()
        defaults.calibration.enabled = false
        var off = defaults
        off.positioning.gridByDefault = false
        for (layout, configuration, tracks) in [
            (planned, defaults, true), (planned, off, false), (open, defaults, true), (open, off, false),
        ] {
            let fusion = try SiteFusion(layout: layout, configuration: configuration)
            GridTrackerTests.hear(fusion, x: 4, y: 6, seconds: 1...5)
            #expect(
                (fusion.statistics.tracked > 0) == tracks, "\(layout.obstacles.count) obstacles, \(configuration.positioning)")
            #expect((fusion.statistics.multilaterations > 0) == !tracks)
        }
    }

    @Test("with rooms outlined, a tracked beacon's room is the outline holding its position, not its loudest gateway's room")
    func roomsFromOutlines() throws {
        // Gateway g0 (the south-west corner) is the stand's; the stand is the middle of the room,
        // where no gateway is. The tag at (7, 4.5) is nearest g3 (the hall's), inside the stand.
        let gateways = GridTrackerTests.antennas.enumerated().map { g, antenna in
            SiteGateway(id: "g\(g)", room: g == 0 ? "stand" : "hall", position: antenna)
        }
        let outlines = [
            SiteRoomOutline(room: "stand", corners: [SIMD2(3, 1), SIMD2(11, 1), SIMD2(11, 7.5), SIMD2(3, 7.5)]),
            SiteRoomOutline(room: "hall", corners: [SIMD2(-2, -2), SIMD2(14, -2), SIMD2(14, 10), SIMD2(-2, 10)]),
        ]
        var configuration = SiteFusionConfiguration()
        configuration.calibration.enabled = false
        // A tight posterior (a slower walker than the default's): the rule, not the spread, is tested.
        configuration.positioning.grid = GridTracking(walkingSpeed: 2, sensitivity: nil)
        configuration.positioning.pathLossExponent = GridTrackerTests.exponent
        configuration.positioning.tagHeight = GridTrackerTests.tagHeight
        var rooms: [String?] = []
        for layout in [try SiteLayout(gateways: gateways, roomOutlines: outlines), try SiteLayout(gateways: gateways)] {
            let fusion = try SiteFusion(layout: layout, configuration: configuration)
            var room: String?
            GridTrackerTests.hear(fusion, x: 7, y: 4.5, seconds: 1...8) { room = $0.beacons.first?.room ?? room }
            rooms.append(room)
        }
        #expect(rooms == ["stand", "hall"])
    }

    @Test(
        "absurd coordinates never crash: walls reaching 1e300 or 1e308 m are clipped, blocks off the grid ignored, a gateway at 1e300 m leaves the grid off"
    )
    func absurdCoordinates() throws {
        let open = Self.tracker([])
        let grid = open.grid
        let row = Int(((4 - grid.originY) / grid.cellSize).rounded())
        for reach in [1e300, 1e308] {
            let plan = WalkableCells(grid: grid, obstacles: [SiteObstacle(.wall([SIMD2(-reach, 4), SIMD2(reach, 4)]))])
            #expect(
                (0..<grid.columns).allSatisfy { !plan.isWalkable(row * grid.columns + $0) }, "the row at y = 4 is cut (\(reach))")
        }
        // Blocks wholly west, south, east and north of the grid take no cell; nor a wall far off.
        let outside = [
            SiteObstacle(.block([SIMD2(-50, 0), SIMD2(-40, 0), SIMD2(-40, 5)])),
            SiteObstacle(.block([SIMD2(0, -50), SIMD2(5, -50), SIMD2(5, -40)])),
            SiteObstacle(.block([SIMD2(40, 0), SIMD2(50, 0), SIMD2(50, 5)])),
            SiteObstacle(.block([SIMD2(0, 40), SIMD2(5, 40), SIMD2(5, 50)])),
            SiteObstacle(.wall([SIMD2(-1e308, -1e308), SIMD2(-1e307, -1e308)])),
        ]
        #expect(WalkableCells(grid: grid, obstacles: outside).isOpen)
        var gateways = GridTrackerTests.antennas.enumerated().map {
            SiteGateway(id: "g\($0.offset)", room: "room", position: $0.element)
        }
        gateways[3].position = Vector3(x: 1e300, y: 8, z: 3)
        let block = SiteObstacle(.block([SIMD2(6, 0), SIMD2(8, 0), SIMD2(8, 3), SIMD2(6, 3)]))
        let fusion = try SiteFusion(layout: try SiteLayout(gateways: gateways, obstacles: [block]))
        #expect(fusion.gridCellSize == 0, "no grid over a site 1e300 m wide")
    }

    @Test("with a heading (a shifted kernel), the walled blur equals the open one wherever no wall is near")
    func walledBlurMatchesOpenBlur() {
        let settings = GridTracking(sensitivity: nil)
        var open = Self.tracker([], settings: settings)
        // Readings of σ = 1 dB at the middle of the room: a posterior far from the grid's edges,
        // where the open path lets probability fall off and the walled one keeps it.
        for cycle in 1...6 {
            open.readings = GridTrackerTests.antennas.indices.map { g in
                .init(gateway: g, loss: GridTrackerTests.loss(g, x: 6, y: 4), weight: 1)
            }
            _ = open.step(0, cycle: Int64(cycle), cycleSeconds: 1, minimumReadings: 3, offsetPrior: 10, missLoss: 0, sigma: 6)
        }
        // One blocked cell in the far corner, beyond anything the blur reaches.
        let corner = SiteObstacle(.block([SIMD2(13.3, 9.3), SIMD2(13.9, 9.3), SIMD2(13.9, 9.9), SIMD2(13.3, 9.9)]))
        var walled = Self.tracker([corner], settings: settings)
        #expect(!walled.plans[0].isOpen)
        walled.posteriors = open.posteriors
        let box = open.boxes[0]
        #expect(box.cellCount < open.grid.cellCount / 2, "\(box)")
        _ = open.predict(0, box: box, spread: 1.5, drift: (3, -2))
        _ = walled.predict(0, box: box, spread: 1.5, drift: (3, -2))
        let largest = open.posteriors.max() ?? 0
        let worst = zip(open.posteriors, walled.posteriors).map { abs($0 - $1) }.max() ?? 0
        #expect(largest > 0.001 && worst < largest * 1e-4, "largest \(largest), worst difference \(worst)")
    }

    @Test("a beacon whose floor changes to a plan that blocks where it was restarts, and follows its readings")
    func planChangeRestarts() {
        // Plan 0 (no floor known) is open; floor 0's blocks the west half.
        let grid = Self.tracker([]).grid
        let westBlocked = WalkableCells(
            grid: grid, obstacles: [SiteObstacle(.block([SIMD2(-5, -5), SIMD2(6, -5), SIMD2(6, 15), SIMD2(-5, 15)]))])
        var tracker = GridTracker(
            grid: grid, settings: GridTracking(sensitivity: nil), plans: [WalkableCells(grid: grid), westBlocked])
        for (g, antenna) in GridTrackerTests.antennas.enumerated() {
            tracker.model(
                gateway: g, antenna: antenna, exponent: GridTrackerTests.exponent, tagHeight: GridTrackerTests.tagHeight)
        }
        func step(x: Double, cycle: Int64, floor: Int) -> (x: Double, y: Double, radius90: Double)? {
            tracker.readings.removeAll()
            for g in GridTrackerTests.antennas.indices {
                tracker.readings.append(.init(gateway: g, loss: GridTrackerTests.loss(g, x: x, y: 4), weight: 1 / 36))
            }
            return tracker.step(
                0, cycle: cycle, cycleSeconds: 1, minimumReadings: 3, offsetPrior: 10, missLoss: 0, sigma: 6, floor: floor)
        }
        for cycle in 1...8 { _ = step(x: 3, cycle: Int64(cycle), floor: -1) }
        var last: (x: Double, y: Double, radius90: Double)?
        for cycle in 9...14 { last = step(x: 10, cycle: Int64(cycle), floor: 0) }
        #expect(GridTrackerTests.distance(last, 10, 4) < 1.5, "\(String(describing: last))")
    }

    @Test("a wall drawn across the grid cuts every row and column it crosses, diagonals too")
    func wallsCutEveryLine() {
        let tracker = Self.tracker([SiteObstacle(.wall([SIMD2(0, 0), SIMD2(12, 8)]))])
        let grid = tracker.grid
        let plan = tracker.plans[0]
        func cell(_ x: Double, _ y: Double) -> Int {
            Int(((y - grid.originY) / grid.cellSize).rounded()) * grid.columns
                + Int(((x - grid.originX) / grid.cellSize).rounded())
        }
        // Every row the wall spans: walkable cells 1.5 m west and east of it lie in different runs.
        for row in 0..<grid.rows {
            let y = grid.y(row: row)
            guard y > 0.5, y < 7.5 else { continue }
            let west = cell(y * 12 / 8 - 1.5, y)
            let east = cell(y * 12 / 8 + 1.5, y)
            #expect(plan.isWalkable(west) && plan.isWalkable(east), "row at y = \(y)")
            #expect(plan.rowRunEnd[west] < plan.rowRunStart[east], "row at y = \(y)")
        }
        // Every column likewise: 1.5 m south and north of it.
        for column in 0..<grid.columns {
            let x = grid.x(column: column)
            guard x > 0.5, x < 11.5 else { continue }
            let south = cell(x, x * 8 / 12 - 1.5)
            let north = cell(x, x * 8 / 12 + 1.5)
            #expect(plan.isWalkable(south) && plan.isWalkable(north), "column at x = \(x)")
            #expect(plan.columnRunEnd[south] < plan.columnRunStart[north], "column at x = \(x)")
        }
    }
}
