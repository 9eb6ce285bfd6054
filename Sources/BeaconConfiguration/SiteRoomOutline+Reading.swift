import BeaconCore

extension SiteRoomOutline {
    /// Reads `rooms:` beside `gateways:`: each room's outline, `{name, outline: [[x, y], …]}` or
    /// `{name, min: [x, y], max: [x, y]}`, and for a walled room its `doors: [[x, y] or {at: [x, y],
    /// width: w}, …]` (each on the outline), checked at its line.
    ///
    /// An outline may name a room no gateway is in (a corridor, a store room): the grid filter's
    /// posterior is then the only evidence of it, so such a room needs a site of one floor.
    /// - Parameters:
    ///   - node: the `rooms:` node, if any.
    ///   - rooms: the rooms the gateways name (each outlined once at most).
    ///   - floors: the floors the gateways name (a room without a gateway needs at most one).
    public static func read(_ node: ConfigNode?, rooms: [String], floors: [String] = []) throws(ConfigurationError)
        -> [SiteRoomOutline]
    {
        var outlines: [SiteRoomOutline] = []
        for entry in try node?.sequence(of: "rooms, each {name: …, outline: [[x, y], …]} or {name: …, min: [x, y], max: [x, y]}")
            ?? []
        {
            try entry.checkKeys(allowed: ["name", "outline", "min", "max", "doors"], in: "rooms[]")
            let nameNode = try entry.required("name")
            let name = try nameNode.string()
            if !rooms.contains(name), let refusal = refusal(roomWithoutGateway: name, floorCount: floors.count) {
                throw nameNode.error(refusal)
            }
            guard !outlines.contains(where: { $0.room == name }) else {
                throw nameNode.error("room '\(name)' is outlined twice: give each room one outline")
            }
            let corners: [SIMD2<Double>]
            if let outline = entry["outline"] {
                guard entry["min"] == nil, entry["max"] == nil else {
                    throw entry.error("room '\(name)' has an outline and min/max: give one or the other")
                }
                corners = try outline.planarPoints(least: 3, what: "a room's outline")
            } else {
                corners = try entry.rectangleCorners(what: "room '\(name)'")
            }
            var outline = SiteRoomOutline(room: name, corners: corners)
            if let doors = entry["doors"] { outline.doors = try readDoors(doors, of: outline) }
            outlines.append(outline)
        }
        return outlines
    }

    /// A walled room's `doors:`: `[x, y]` (a door of ``SiteDoor/defaultWidth``) or `{at: [x, y],
    /// width: w}`, each within ``SiteDoor/tolerance`` of the outline.
    static func readDoors(_ node: ConfigNode, of outline: SiteRoomOutline) throws(ConfigurationError) -> [SiteDoor] {
        var doors: [SiteDoor] = []
        for item in try node.sequence(of: "doors, each [x, y] or {at: [x, y], width: metres} on the room's outline") {
            let door: SiteDoor
            if item["at"] != nil || item["width"] != nil {
                try item.checkKeys(allowed: ["at", "width"], in: "a door")
                let at = try item.required("at").numbers(count: 2...2, "a door's centre [x, y] in metres")
                let width = try item["width"]?.number(in: 0.3...50, "a door's width in metres") ?? SiteDoor.defaultWidth
                door = SiteDoor(center: SIMD2(at[0], at[1]), width: width)
            } else {
                let at = try item.numbers(count: 2...2, "a door's centre [x, y] in metres, or {at: [x, y], width: metres}")
                door = SiteDoor(center: SIMD2(at[0], at[1]))
            }
            guard outline.opens(door) else {
                throw item.error(
                    "the door at [\(door.center.x), \(door.center.y)] is not on room '\(outline.room)''s outline: put it on the "
                        + "wall it opens (within \(SiteDoor.tolerance) m of an edge)")
            }
            doors.append(door)
        }
        return doors
    }
}
