import BeaconConfiguration
import BeaconCore
import BeaconSite
import BeaconSiteReport

extension HubSettings {
    /// The keys beside `gateways:` that draw the site's floor plan (a hub's file only).
    static let floorPlanKeys = ["walls", "blocks", "rooms"]

    /// Reads `walls:`, `blocks:` and `rooms:` and draws them on `layout`, each entry checked at
    /// its line against the layout's floors and rooms.
    static func drawFloorPlan(on layout: inout SiteLayout, walls: ConfigNode?, blocks: ConfigNode?, rooms: ConfigNode?)
        throws(ConfigurationError)
    {
        guard let drawn = walls ?? blocks ?? rooms else { return }
        let obstacles = try SiteObstacle.read(walls: walls, blocks: blocks, floors: layout.floors)
        let outlines = try SiteRoomOutline.read(rooms, rooms: layout.rooms, floors: layout.floors)
        do {
            try layout.draw(obstacles: obstacles, roomOutlines: outlines)
        } catch {
            // The readers check what draw(obstacles:roomOutlines:) does, at each entry's line.
            throw drawn.error(error.description)
        }
    }

    /// `hub.floorPlan`: the image under the status page's map and the rectangle it covers.
    static func readFloorPlan(_ node: ConfigNode) throws(ConfigurationError) -> FloorPlan {
        try node.checkKeys(allowed: ["image", "min", "max"], in: "hub.floorPlan")
        let image = try node.required("image").filePath()
        if let reason = UnreadableFile.reason(image) {
            throw node["image"]!.error("cannot read the floor plan image \(image): it \(reason)")
        }
        let min = try node.required("min").numbers(count: 2...2, "the image's bottom-left corner [x, y] in metres")
        let max = try node.required("max").numbers(count: 2...2, "the image's top-right corner [x, y] in metres")
        guard max[0] > min[0], max[1] > min[1] else {
            throw node.error("the floor plan's max [x, y] must be above and right of its min")
        }
        return FloorPlan(image: image, min: (min[0], min[1]), max: (max[0], max[1]))
    }
}
