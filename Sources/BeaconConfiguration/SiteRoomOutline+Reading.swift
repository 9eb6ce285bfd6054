import BeaconCore

extension SiteRoomOutline {
    /// Reads `rooms:` beside `gateways:`: each room's outline, `{name, outline: [[x, y], …]}` or
    /// `{name, min: [x, y], max: [x, y]}`, checked at its line.
    /// - Parameters:
    ///   - node: the `rooms:` node, if any.
    ///   - rooms: the rooms the gateways name (an outline's room must be one, once).
    public static func read(_ node: ConfigNode?, rooms: [String]) throws(ConfigurationError) -> [SiteRoomOutline] {
        var outlines: [SiteRoomOutline] = []
        for entry in try node?.sequence(of: "rooms, each {name: …, outline: [[x, y], …]} or {name: …, min: [x, y], max: [x, y]}")
            ?? []
        {
            try entry.checkKeys(allowed: ["name", "outline", "min", "max"], in: "rooms[]")
            let nameNode = try entry.required("name")
            let name = try nameNode.string()
            guard rooms.contains(name) else {
                let known = rooms.isEmpty ? "no gateway names a room" : "the gateways' rooms are \(rooms.joined(separator: ", "))"
                throw nameNode.error("room '\(name)' has an outline but no gateway: \(known)")
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
            outlines.append(SiteRoomOutline(room: name, corners: corners))
        }
        return outlines
    }
}
