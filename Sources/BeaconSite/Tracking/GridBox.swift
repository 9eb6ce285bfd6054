/// The rectangle of cells a beacon's posterior is non-zero in (inclusive bounds); every cell
/// outside it holds 0, so a step costs the box, not the grid.
struct GridBox {
    var firstColumn: Int16 = 1
    var lastColumn: Int16 = 0
    var firstRow: Int16 = 1
    var lastRow: Int16 = 0
    /// The hub cycle of the beacon's latest step (its prediction covers the time since).
    var cycle: Int64 = 0

    /// No posterior: the beacon is not tracked on the grid (yet, or any more).
    var isEmpty: Bool { firstColumn > lastColumn }

    /// Cells in the box.
    var cellCount: Int { isEmpty ? 0 : (Int(lastColumn - firstColumn) + 1) * (Int(lastRow - firstRow) + 1) }

    /// The whole grid.
    static func full(columns: Int, rows: Int, cycle: Int64) -> GridBox {
        GridBox(firstColumn: 0, lastColumn: Int16(columns - 1), firstRow: 0, lastRow: Int16(rows - 1), cycle: cycle)
    }
}
