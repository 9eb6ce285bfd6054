import BeaconCore

/// Which room's outline holds each cell of a `PositionGrid`: how the grid filter's
/// posterior becomes each room's share (`RoomDecider.decide(_:shares:gateways:now:silence:)`).
struct RoomCells {
    /// Per cell: the index of the room (into the layout's rooms) whose outline holds the cell's
    /// centre, -1 for none (the first outline drawn wins where two overlap).
    let roomOfCell: [Int16]
    /// No cell lies in an outline (the outlines lie off the grid).
    let isEmpty: Bool

    /// The cells of `outlines` (each with its room's index) on `grid`.
    init(grid: PositionGrid, outlines: [(room: Int, corners: [SIMD2<Double>])]) {
        var roomOfCell = Array(repeating: Int16(-1), count: grid.cellCount)
        for row in 0..<grid.rows {
            for column in 0..<grid.columns {
                let centre = SIMD2(grid.x(column: column), grid.y(row: row))
                if let outline = outlines.first(where: { SiteRoomOutline.polygon($0.corners, encloses: centre) }) {
                    roomOfCell[row * grid.columns + column] = Int16(outline.room)
                }
            }
        }
        self.roomOfCell = roomOfCell
        isEmpty = !roomOfCell.contains { $0 >= 0 }
    }
}
