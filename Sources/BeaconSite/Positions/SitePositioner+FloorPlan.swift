import BeaconCore

extension SitePositioner {
    /// The grid filter's room outlines (`GridTracker.rooms`): every outlined room's cells, on a
    /// site of at most one floor (a room naming the one floor and a room naming none are on the
    /// same floor); `nil` for a site whose outlines hold no cell, or that has several floors (the
    /// grid does not tell floors apart: there the gateways' rule decides rooms and floors).
    static func roomCells(on grid: PositionGrid, layout: SiteLayout) -> RoomCells? {
        guard !layout.roomOutlines.isEmpty, layout.floors.count <= 1 else { return nil }
        let outlines = layout.roomOutlines.compactMap { outline in
            layout.rooms.firstIndex(of: outline.room).map { (room: $0, corners: outline.corners) }
        }
        let cells = RoomCells(grid: grid, outlines: outlines)
        return cells.isEmpty ? nil : cells
    }

    /// The grid filter's floor plans (`GridTracker.plans`): for a beacon on no known floor the
    /// obstacles drawn for every floor, then for each floor those and its own; none for a site
    /// without obstacles.
    static func floorPlans(on grid: PositionGrid, layout: SiteLayout) -> [WalkableCells] {
        guard !layout.obstacles.isEmpty else { return [] }
        return (-1..<layout.floors.count).map { floor in
            WalkableCells(
                grid: grid,
                obstacles: layout.obstacles.filter { $0.floor == nil || layout.floorIndex($0.floor) == floor })
        }
    }
}
