import Testing

@testable import BeaconSite

/// The grid filter's headings alone (`GridHeadings`): the α-β velocity step, its cap, and a tag
/// that stops.
@Suite("Grid headings: an α-β tracker's velocity per beacon")
struct GridHeadingsTests {
    /// Walking at most 4 m/s, a still share of 0.2, all of the heading carried.
    static func headings() -> GridHeadings {
        var headings = GridHeadings(walkingSpeed: 4, stillShare: 0.2, momentum: 1)
        headings.grow(to: 2)
        return headings
    }

    @Test("the first estimate sets the place, not a velocity")
    func firstEstimate() {
        var headings = Self.headings()
        headings.follow(1, to: (3, 4), after: 1)
        #expect(headings[1].x == 3 && headings[1].y == 4)
        #expect(headings[1].vx == 0 && headings[1].vy == 0)
        #expect(headings[0].x.isNaN, "another beacon's heading is untouched")
    }

    @Test(
        "each step gains half the surprise per second: where the estimate landed less where the heading carried it",
        arguments: [
            // (velocity before, the estimate's move, seconds, velocity after)
            (0.0, 1.0, 1.0, 0.5), // from rest: half of 1 m in 1 s
            (0.5, 1.0, 1.0, 0.5 + 0.5 * (1.0 - 0.5 * 0.8)), // carried 0.8 × 0.5 m of it
            (1.0, 0.8, 1.0, 1.0), // the heading carried it exactly there: no surprise
            (0.0, 1.0, 2.0, 0.25), // the same move over 2 s is half the speed
        ])
    func gainsHalfTheSurprise(before: Double, move: Double, seconds: Double, after: Double) {
        var headings = Self.headings()
        headings[0] = GridHeadings.Heading(x: 10, y: 0, vx: before, vy: 0)
        headings.follow(0, to: (10 + move, 0), after: seconds)
        #expect(abs(headings[0].vx - after) < 1e-12, "\(headings[0].vx)")
        #expect(headings[0].vy == 0 && headings[0].x == 10 + move)
    }

    @Test("a heading is never faster than the walking speed, in its direction")
    func capped() {
        var headings = Self.headings()
        headings[0] = GridHeadings.Heading(x: 0, y: 0, vx: 3, vy: 3)
        headings.follow(0, to: (10, 10), after: 1)
        let speed = (headings[0].vx * headings[0].vx + headings[0].vy * headings[0].vy).squareRoot()
        #expect(abs(speed - 4) < 1e-9)
        #expect(abs(headings[0].vx - headings[0].vy) < 1e-12)
    }

    @Test("a tag that stops pulls its heading back towards zero, step after step")
    func stops() {
        var headings = Self.headings()
        headings[0] = GridHeadings.Heading(x: 0, y: 0, vx: 2, vy: 0)
        var speeds: [Double] = []
        for _ in 0..<6 {
            headings.follow(0, to: (0, 0), after: 1)
            speeds.append(abs(headings[0].vx))
        }
        #expect(zip(speeds, speeds.dropFirst()).allSatisfy { $0 > $1 }, "\(speeds)")
        #expect(speeds.last! < 0.1, "\(speeds)")
    }
}
