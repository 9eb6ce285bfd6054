import BeaconCore

extension SiteObstacle {
    /// Reads `walls:` and `blocks:` beside `gateways:`, each checked at its line:
    ///
    /// ```yaml
    /// walls:                                        # polylines, metres
    ///   - [[0, 0], [20, 0], [20, 12]]
    ///   - {line: [[8, 0], [8, 5]], floor: ground}
    /// blocks:                                       # areas nobody stands in
    ///   - [[2, 2], [6, 2], [6, 4], [2, 4]]          # a polygon
    ///   - {area: [[7, 2], [8, 2], [8, 4]], floor: ground}   # a polygon on one floor
    ///   - {min: [8, 2], max: [12, 4], floor: ground} # a rectangle
    /// ```
    /// - Parameters:
    ///   - walls: the `walls:` node, if any.
    ///   - blocks: the `blocks:` node, if any.
    ///   - floors: the site's floors (an obstacle's `floor:` must be one).
    public static func read(walls: ConfigNode?, blocks: ConfigNode?, floors: [String]) throws(ConfigurationError)
        -> [SiteObstacle]
    {
        var obstacles: [SiteObstacle] = []
        for entry in try walls?.sequence(of: "walls, each a list of points [[x, y], …]") ?? [] {
            let points = try readPoints(entry, key: "line", least: 2, what: "a wall")
            obstacles.append(SiteObstacle(.wall(points), floor: try readFloor(entry, floors: floors)))
        }
        for entry in try blocks?.sequence(of: "blocks, each a list of corners [[x, y], …] or {min: [x, y], max: [x, y]}") ?? [] {
            let corners: [SIMD2<Double>]
            if entry.isMapping, entry["min"] != nil || entry["max"] != nil {
                try entry.checkKeys(allowed: ["min", "max", "floor"], in: "blocks[]")
                corners = try entry.rectangleCorners(what: "a block")
            } else {
                corners = try readPoints(entry, key: "area", least: 3, what: "a block")
            }
            obstacles.append(SiteObstacle(.block(corners), floor: try readFloor(entry, floors: floors)))
        }
        return obstacles
    }

    private static func readPoints(_ entry: ConfigNode, key: String, least: Int, what: String) throws(ConfigurationError)
        -> [SIMD2<Double>]
    {
        let list: ConfigNode
        if entry.isMapping {
            try entry.checkKeys(allowed: [key, "floor"], in: what == "a wall" ? "walls[]" : "blocks[]")
            list = try entry.required(key)
        } else {
            list = entry
        }
        return try list.planarPoints(least: least, what: what)
    }

    private static func readFloor(_ entry: ConfigNode, floors: [String]) throws(ConfigurationError) -> String? {
        guard entry.isMapping, let node = entry["floor"] else { return nil }
        let floor = try node.string()
        guard floors.contains(floor) else {
            let known = floors.isEmpty ? "the site names no floors" : "its floors are \(floors.joined(separator: ", "))"
            throw node.error("floor '\(floor)' is not one of the site's: \(known)")
        }
        return floor
    }
}
