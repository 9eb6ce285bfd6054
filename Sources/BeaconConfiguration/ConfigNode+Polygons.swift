import BeaconCore

extension ConfigNode {
    /// The farthest a floor plan's point may lie from the origin, metres (10,000 km): a typo
    /// beyond it is refused rather than laid over the grid.
    static let planLimit = 1e7

    /// A list of at least `least` points `[[x, y], …]` in metres; `what` names the shape in the
    /// error ("a wall").
    func planarPoints(least: Int, what: String) throws(ConfigurationError) -> [SIMD2<Double>] {
        let items = try sequence(of: "points [x, y] in metres")
        guard items.count >= least else { throw error("\(what) needs at least \(least) points [x, y], not \(items.count)") }
        var points: [SIMD2<Double>] = []
        for item in items {
            let xy = try item.numbers(count: 2...2, "a point [x, y] in metres")
            guard xy.allSatisfy({ abs($0) <= Self.planLimit }) else {
                throw item.error("a point of a floor plan within 10,000 km of the origin, in metres, not [\(xy[0]), \(xy[1])]")
            }
            points.append(SIMD2(xy[0], xy[1]))
        }
        return points
    }

    /// The four corners of the rectangle `{min: [x, y], max: [x, y]}` (this mapping's `min` and
    /// `max`), counter-clockwise from `min`; `what` names it in the error ("a block").
    func rectangleCorners(what: String) throws(ConfigurationError) -> [SIMD2<Double>] {
        let low = try required("min").numbers(count: 2...2, "a corner [x, y] in metres")
        let high = try required("max").numbers(count: 2...2, "a corner [x, y] in metres")
        guard (low + high).allSatisfy({ abs($0) <= Self.planLimit }) else {
            throw error("\(what)'s corners within 10,000 km of the origin, in metres")
        }
        guard high[0] > low[0], high[1] > low[1] else {
            throw error("\(what)'s max [\(high[0]), \(high[1])] must lie above and right of its min [\(low[0]), \(low[1])]")
        }
        return SiteRoomOutline.rectangle(SIMD2(low[0], low[1]), SIMD2(high[0], high[1]))
    }
}
