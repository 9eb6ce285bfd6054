import BeaconCore
import BeaconRanging
import BeaconSiteReport
import Testing

@testable import BeaconSite

/// The grid filter's fixed-lag smoother (`FixedLagSmoother`) alone, inside the grid filter, and
/// through a hub's cycle facts.
@Suite("Fixed-lag smoother: a beacon's position a few steps ago, decided again")
struct FixedLagSmootherTests {
    @Test("a walker's smoothed position is closer to where it was than the filter's estimate then")
    func walkerIsCloser() {
        // A Kalman filter under the smoother's own model (a random walk of 1 m² a second) follows
        // a walker at 1 m/s along y = 4 from readings off by ±1.5 m (a fixed zig-zag); it trails
        // the walker and wobbles with the readings. The smoother gets its means and variances.
        let processNoise = 1.0
        let readingVariance = 1.5 * 1.5
        var smoother = FixedLagSmoother(lag: 3, processNoise: processNoise)
        var (x, y, variance) = (0.0, 4.0, 4.0)
        var filtered: [Int64: Double] = [:]
        var smoothedError = 0.0
        var smoothedCount = 0
        for k in 1...40 {
            let wobble = (k % 2 == 0 ? 1.5 : -1.5) * (k % 3 == 0 ? 0.5 : 1)
            variance += processNoise
            let gain = variance / (variance + readingVariance)
            x += gain * (Double(k) + wobble - x)
            y += gain * (4 - wobble - y)
            variance *= 1 - gain
            filtered[Int64(k)] = ((x - Double(k)) * (x - Double(k)) + (y - 4) * (y - 4)).squareRoot()
            smoother.record(0, cycle: Int64(k), x: x, y: y, radius90: variance.squareRoot() * 2.146)
            if let s = smoother.smoothed(0, at: Int64(k), cycleSeconds: 1), s.cycle > 10 {
                let truth = Double(s.cycle)
                smoothedError += ((s.x - truth) * (s.x - truth) + (s.y - 4) * (s.y - 4)).squareRoot()
                smoothedCount += 1
            }
        }
        let filteredError = (11...37).reduce(0.0) { $0 + filtered[Int64($1)]! }
        #expect(smoothedCount == 27)
        #expect(smoothedError < 0.7 * filteredError, "smoothed \(smoothedError) m against \(filteredError) m in all")
    }

    @Test("a tag that stands still: the smoothed position is where it stands, its radius narrower than a step's")
    func stillTag() throws {
        var smoother = FixedLagSmoother(lag: 2, processNoise: 4)
        for k in 1...5 { smoother.record(0, cycle: Int64(k), x: 3, y: 5, radius90: 3) }
        let s = try #require(smoother.smoothed(0, at: 5, cycleSeconds: 1))
        #expect(s.cycle == 3)
        #expect(abs(s.x - 3) < 1e-5 && abs(s.y - 5) < 1e-5)
        #expect(s.radius90 < 3 && s.radius90 > 1, "\(s.radius90) m")
    }

    @Test("nothing until `lag` steps came after it, nor for a cycle the beacon was not stepped in")
    func onlyWhenKnown() {
        var smoother = FixedLagSmoother(lag: 2, processNoise: 4)
        smoother.record(0, cycle: 10, x: 1, y: 1, radius90: 2)
        smoother.record(0, cycle: 11, x: 1, y: 1, radius90: 2)
        #expect(smoother.smoothed(0, at: 11, cycleSeconds: 1) == nil)
        smoother.record(0, cycle: 13, x: 1, y: 1, radius90: 2)
        #expect(smoother.smoothed(0, at: 13, cycleSeconds: 1)?.cycle == 10)
        #expect(smoother.smoothed(0, at: 14, cycleSeconds: 1) == nil, "not stepped in cycle 14")
        #expect(smoother.smoothed(1, at: 13, cycleSeconds: 1) == nil, "another beacon")
        smoother.forget(0)
        smoother.record(0, cycle: 14, x: 1, y: 1, radius90: 2)
        #expect(smoother.smoothed(0, at: 14, cycleSeconds: 1) == nil, "a restarted track starts its history again")
    }

    @Test("an evicted beacon's history is taken over by the last one")
    func eviction() {
        var smoother = FixedLagSmoother(lag: 1, processNoise: 4)
        for k in 1...3 {
            smoother.record(0, cycle: Int64(k), x: 1, y: 1, radius90: 2)
            smoother.record(1, cycle: Int64(k), x: 9, y: 6, radius90: 2)
        }
        smoother.move(1, to: 0)
        #expect(smoother.smoothed(1, at: 3, cycleSeconds: 1) == nil)
        let s = smoother.smoothed(0, at: 3, cycleSeconds: 1)
        #expect(s.map { abs($0.x - 9) < 1e-5 && $0.cycle == 2 } == true, "\(String(describing: s))")
    }

    @Test("in the grid filter: a walker's smoothed track, and a lost track's history dropped at its restart")
    func inTheGridFilter() throws {
        var tracker = GridTrackerTests.tracker(settings: GridTracking(walkingSpeed: 2, sensitivity: nil, lag: 2))
        for cycle in 1...10 { GridTrackerTests.step(&tracker, x: 1, y: 1, cycle: Int64(cycle)) }
        let before = try #require(tracker.smoother?.smoothed(0, at: 10, cycleSeconds: 1))
        #expect(before.cycle == 8 && GridTrackerTests.distance((before.x, before.y, before.radius90), 1, 1) < 0.5, "\(before)")
        // Carried off while unheard for 10 s: the track restarts, and its history with it.
        GridTrackerTests.step(&tracker, x: 11, y: 7, cycle: 20)
        GridTrackerTests.step(&tracker, x: 11, y: 7, cycle: 21)
        #expect(tracker.smoother?.smoothed(0, at: 21, cycleSeconds: 1) == nil)
        GridTrackerTests.step(&tracker, x: 11, y: 7, cycle: 22)
        let after = try #require(tracker.smoother?.smoothed(0, at: 22, cycleSeconds: 1))
        #expect(after.cycle == 20 && GridTrackerTests.distance((after.x, after.y, after.radius90), 11, 7) < 1.5, "\(after)")
        let off = GridTrackerTests.tracker(settings: GridTracking(walkingSpeed: 2, lag: 0))
        #expect(off.smoother == nil && off.bytesPerBeacon < tracker.bytesPerBeacon)
    }

    @Test("a hub refuses a lag past ten steps, as check-config does: the history's count is one byte")
    func lagBound() throws {
        let layout = try SiteLayout(gateways: [SiteGateway(id: "g")])
        var configuration = SiteFusionConfiguration()
        configuration.positioning.grid = GridTracking(lag: 11)
        #expect(throws: SiteConfigurationError.invalid("hub.position.grid.lag must be a whole number of steps from 0 to 10")) {
            try SiteFusion(layout: layout, configuration: configuration)
        }
        configuration.positioning.grid = GridTracking(lag: 10)
        _ = try SiteFusion(layout: layout, configuration: configuration)
    }

    @Test("a hub's cycle facts carry the smoothed position, `lag` cycles before the cycle's end")
    func throughTheHub() throws {
        let layout = try SiteLayout(
            gateways: GridTrackerTests.antennas.enumerated().map {
                SiteGateway(id: "g\($0.offset)", room: "room", position: $0.element)
            })
        for lag in [0, 3] {
            var configuration = SiteFusionConfiguration()
            configuration.positioning.pathLossExponent = GridTrackerTests.exponent
            configuration.positioning.tagHeight = GridTrackerTests.tagHeight
            configuration.calibration.enabled = false
            configuration.positioning.grid = GridTracking(walkingSpeed: 2, lag: lag)
            let fusion = try SiteFusion(layout: layout, configuration: configuration)
            var facts = SiteCycleFacts(gatewayIDs: layout.gateways.map { $0.id })
            var seen: [(update: Timestamp, smoothed: SmoothedPosition?)] = []
            GridTrackerTests.hear(fusion, x: 4, y: 6, seconds: 1...10) { update in
                fusion.describeCycle(update, into: &facts, evidence: false)
                if !update.beacons.isEmpty { seen.append((update.time, facts.smoothedPosition(ofBeaconAt: 0))) }
            }
            #expect(seen.count >= 9)
            if lag == 0 {
                #expect(seen.allSatisfy { $0.smoothed == nil })
            } else {
                #expect(seen.prefix(lag).allSatisfy { $0.smoothed == nil }, "no smoothed position in the first \(lag) cycles")
                let last = try #require(seen.last?.smoothed)
                #expect(seen.last.map { $0.update - last.time } == .seconds(lag))
                let error = ((last.position.x - 4) * (last.position.x - 4) + (last.position.y - 6) * (last.position.y - 6))
                    .squareRoot()
                #expect(error < 0.5, "\(last)")
                #expect(last.position.z == GridTrackerTests.tagHeight)
            }
        }
    }
}
