import BeaconCore
import BeaconSiteReport
import Testing

@testable import BeaconSite

/// The hub's position stage alone: an evidence table filled by hand, the stage's answer read back,
/// no intake, rooms or cycles around it.
@Suite("SitePositioner: a position from one cycle's evidence")
struct SitePositionerTests {
    /// Four receivers at the corners of a 10 m square, at the tags' height (a flat geometry).
    static let corners = [Vector3(0, 0, 1), Vector3(10, 0, 1), Vector3(0, 10, 1), Vector3(10, 10, 1)]
    static let power: Int8 = -59
    static let exponent = 2.0

    static func layout(floors: [String?] = [nil, nil, nil, nil]) throws -> SiteLayout {
        try SiteLayout(
            gateways: zip(corners, floors).enumerated().map { index, gateway in
                SiteGateway(id: "g\(index)", room: gateway.1 ?? "room", position: gateway.0, floor: gateway.1)
            })
    }

    static func positioner(_ layout: SiteLayout, grid: Bool) -> SitePositioner {
        var settings = PositioningConfiguration(tagHeight: 1, pathLossExponent: exponent, tracking: nil)
        settings.gridByDefault = grid
        return SitePositioner(layout: layout, settings: settings, cycleSeconds: 1)
    }

    /// A table holding one beacon whose `cycle` readings at the gateways `heard` are what the
    /// model gives at (`x`, `y`) with `exponent`, less `lowBy[g]` dB.
    static func evidence(
        at x: Double, _ y: Double, cycle: Int64, heard: [Int] = [0, 1, 2, 3], exponent: Double = exponent,
        lowBy: [Int: Double] = [:], into table: inout EvidenceTable
    ) {
        if table.slots.isEmpty { table.appendBeacon() }
        for g in heard {
            let d = ((corners[g].x - x) * (corners[g].x - x) + (corners[g].y - y) * (corners[g].y - y)).squareRoot()
            let rssi = Float(PathLoss.rssi(measuredPower: Double(power), exponent: exponent, distance: d) - (lowBy[g] ?? 0))
            table.file(
                EvidenceSlot(cycle: cycle, rssi: rssi, mean: rssi, distance: .nan, accuracy: .nan, samples: 4, seen: true),
                at: table.index(beacon: 0, gateway: g, cycle: cycle))
        }
    }

    static func error(_ position: BeaconPosition?, _ x: Double, _ y: Double) -> Double {
        guard let position else { return .infinity }
        return ((position.x - x) * (position.x - x) + (position.y - y) * (position.y - y)).squareRoot()
    }

    /// Places the beacon of `table` once for `cycle`.
    static func place(
        _ positioner: inout SitePositioner, _ table: EvidenceTable, cycle: Int64, floor: Int = -1,
        reporting: [Bool] = [true, true, true, true]
    ) -> SitePositioner.Placement {
        var tracker = PositionTracker()
        return positioner.place(
            0, cycle: cycle, floor: floor, measuredPower: power, evidence: table, reporting: reporting, tracker: &tracker)
    }

    @Test("per cycle: three gateways or more are solved to the truth; two give their centroid; none, nothing")
    func perCycle() throws {
        var positioner = Self.positioner(try Self.layout(), grid: false)
        #expect(positioner.gridTracker == nil)
        var table = EvidenceTable(gatewayCount: 4, staleCycles: 2)
        Self.evidence(at: 3, 6, cycle: 1, into: &table)
        let solved = Self.place(&positioner, table, cycle: 1)
        #expect(solved.method == .multilaterated)
        #expect(Self.error(solved.position, 3, 6) < 0.05, "\(String(describing: solved.position))")
        #expect(solved.posterior == nil)

        Self.evidence(at: 3, 6, cycle: 2, heard: [0, 2], into: &table)
        let pair = Self.place(&positioner, table, cycle: 2)
        #expect(pair.method == .centroid)
        let centroid = try #require(pair.position)
        #expect(abs(centroid.x) < 1e-9, "between g0 (0, 0) and g2 (0, 10): on x = 0")

        let silent = Self.place(&positioner, table, cycle: 3)
        #expect(silent.method == .unplaced && silent.position == nil)
    }

    @Test("on the grid: a beacon heard cycle after cycle is placed by its posterior, whose radius it states")
    func onTheGrid() throws {
        var positioner = Self.positioner(try Self.layout(), grid: true)
        #expect(positioner.gridTracker != nil)
        var table = EvidenceTable(gatewayCount: 4, staleCycles: 2)
        var placement: SitePositioner.Placement?
        for cycle in Int64(1)...8 {
            Self.evidence(at: 3, 6, cycle: cycle, into: &table)
            placement = Self.place(&positioner, table, cycle: cycle)
        }
        let last = try #require(placement)
        #expect(last.method == .tracked)
        let posterior = try #require(last.posterior)
        #expect(Self.error(last.position, 3, 6) < 0.6, "\(String(describing: last.position))")
        let stated = try #require(last.position).radius90
        #expect(abs(stated - GridTracker.openFloorRadiusScale * posterior.radius90) < 1e-6)
    }

    @Test("on the grid: a beacon walking at 1 m/s states 1.2 of its posterior's radius, the walker's scale")
    func walkerOnTheGrid() throws {
        var positioner = Self.positioner(try Self.layout(), grid: true)
        var table = EvidenceTable(gatewayCount: 4, staleCycles: 2)
        var placement: SitePositioner.Placement?
        for cycle in Int64(1)...10 {
            Self.evidence(at: Double(cycle), 6, cycle: cycle, into: &table)
            placement = Self.place(&positioner, table, cycle: cycle)
        }
        let last = try #require(placement)
        #expect(last.method == .tracked)
        let posterior = try #require(last.posterior)
        let stated = try #require(last.position).radius90
        #expect(abs(stated - GridTracker.walkingRadiusScale * posterior.radius90) < 1e-6, "\(stated) m for \(posterior)")
    }

    @Test("on the grid: a gateway that reports and did not hear the beacon is evidence; one that does not report is none")
    func silenceOfAGatewayThatDoesNotReport() throws {
        /// Where the positioner places a beacon heard at (7, 7) by all but gateway 3, the nearest,
        /// after six cycles; `sensitivity`: the grid's (nil: misses are no evidence).
        func placed(sensitivity: Double?, reporting: [Bool]) throws -> BeaconPosition {
            var settings = PositioningConfiguration(tagHeight: 1, pathLossExponent: Self.exponent, tracking: nil)
            settings.gridByDefault = true
            settings.grid = GridTracking(sensitivity: sensitivity)
            var positioner = SitePositioner(layout: try Self.layout(), settings: settings, cycleSeconds: 1)
            var table = EvidenceTable(gatewayCount: 4, staleCycles: 2)
            var placement: SitePositioner.Placement?
            for cycle in Int64(1)...6 {
                Self.evidence(at: 7, 7, cycle: cycle, heard: [0, 1, 2], into: &table)
                placement = Self.place(&positioner, table, cycle: cycle, reporting: reporting)
            }
            return try #require(placement?.position)
        }
        let withoutMisses = try placed(sensitivity: nil, reporting: [true, true, true, true])
        let missed = try placed(sensitivity: -95, reporting: [true, true, true, true])
        let silent = try placed(sensitivity: -95, reporting: [true, true, true, false])
        // Gateway 3's miss says the beacon is not near it: the estimate moves away from it (a
        // little: a miss takes at most half of a cell's probability, and three readings place it).
        #expect(Self.error(missed, 10, 10) > Self.error(withoutMisses, 10, 10) + 0.005, "\(missed) \(withoutMisses)")
        // A gateway that sent nothing (down, not yet offline) says nothing.
        #expect(silent.x == withoutMisses.x && silent.y == withoutMisses.y, "\(silent) \(withoutMisses)")
    }

    @Test("a gateway on another floor takes no part in a beacon's position on its floor")
    func otherFloor() throws {
        let layout = try Self.layout(floors: ["ground", "ground", "ground", "first"])
        var positioner = Self.positioner(layout, grid: false)
        var table = EvidenceTable(gatewayCount: 4, staleCycles: 2)
        // g3, upstairs, hears the beacon 25 dB louder than the model says it would from (3, 6).
        Self.evidence(at: 3, 6, cycle: 1, lowBy: [3: -25], into: &table)
        let ground = layout.floorIndex("ground")
        let onItsFloor = Self.place(&positioner, table, cycle: 1, floor: ground)
        #expect(Self.error(onItsFloor.position, 3, 6) < 0.05, "g3 is left out")
        let anywhere = Self.place(&positioner, table, cycle: 1, floor: -1)
        #expect(Self.error(anywhere.position, 3, 6) > 1, "on no known floor g3 counts, and pulls it")
    }

    @Test("a calibrated receive offset evens out a receiver that reads 8 dB low")
    func receiveOffset() throws {
        var positioner = Self.positioner(try Self.layout(), grid: false)
        var table = EvidenceTable(gatewayCount: 4, staleCycles: 2)
        Self.evidence(at: 3, 6, cycle: 1, lowBy: [0: 8], into: &table)
        let uncalibrated = Self.error(Self.place(&positioner, table, cycle: 1).position, 3, 6)
        positioner.model.receiveOffsets[0] = 8
        let calibrated = Self.error(Self.place(&positioner, table, cycle: 1).position, 3, 6)
        #expect(calibrated < 0.05 && uncalibrated > 0.5, "uncalibrated \(uncalibrated) m, calibrated \(calibrated) m")
    }

    @Test("a new path-loss exponent rebuilds the grid's tables: readings made with it are placed right")
    func newExponentReachesTheGrid() throws {
        func trackedError(exponentKnown: Bool) throws -> Double {
            var positioner = Self.positioner(try Self.layout(), grid: true)
            if exponentKnown { positioner.model.pathLossExponent = 3.5 }
            var table = EvidenceTable(gatewayCount: 4, staleCycles: 2)
            var last: SitePositioner.Placement?
            for cycle in Int64(1)...8 {
                Self.evidence(at: 2, 3, cycle: cycle, exponent: 3.5, into: &table)
                last = Self.place(&positioner, table, cycle: cycle)
            }
            let placement = try #require(last)
            #expect(placement.method == .tracked)
            return Self.error(placement.position, 2, 3)
        }
        let stale = try trackedError(exponentKnown: false)
        let rebuilt = try trackedError(exponentKnown: true)
        #expect(rebuilt < 1 && rebuilt < stale / 2, "exponent 2 in the tables: \(stale) m; 3.5: \(rebuilt) m")
    }
}
