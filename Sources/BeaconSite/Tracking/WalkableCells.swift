import BeaconCore

/// Where a person can be on one floor of a `PositionGrid`, and how far one can walk from a cell
/// along its row or its column before a wall or a block stops them: the floor plan as the grid
/// filter's motion model sees it.
///
/// A block takes the cells whose centres lie inside it; a wall takes every cell it passes
/// through (sampled every quarter cell), so that each row and each column it crosses is cut.
/// The grid filter moves probability along rows, then along columns, only within a run of
/// walkable cells: nothing crosses a wall or enters a block in one step, and probability goes
/// round a wall's end in two. A block narrower than a cell may hold no cell's centre: draw it
/// as walls.
struct WalkableCells {
    /// No cell is blocked: the grid filter takes its plain path.
    let isOpen: Bool
    /// Per cell: the first and last column of the walkable run along its row that holds it;
    /// first > last for a blocked cell. Empty when ``isOpen``.
    private(set) var rowRunStart: [Int16] = []
    private(set) var rowRunEnd: [Int16] = []
    /// Per cell: the first and last row of the walkable run along its column.
    private(set) var columnRunStart: [Int16] = []
    private(set) var columnRunEnd: [Int16] = []
    /// Walkable cells (all of them when ``isOpen``).
    let walkableCount: Int

    /// Every cell walkable.
    init(grid: PositionGrid) {
        isOpen = true
        walkableCount = grid.cellCount
    }

    /// The cells `obstacles` leave free on `grid`.
    init(grid: PositionGrid, obstacles: [SiteObstacle]) {
        let columns = grid.columns
        let rows = grid.rows
        var blocked = Array(repeating: false, count: grid.cellCount)
        // Cell indices, held to −1…count (outside the grid) before they become integers: an
        // obstacle may lie anywhere, however far.
        func index(_ cells: Double, _ count: Int) -> Int {
            let rounded = cells.rounded()
            return rounded.isNaN ? -1 : Int(min(max(rounded, -1), Double(count)))
        }
        func column(_ x: Double) -> Int { index((x - grid.originX) / grid.cellSize, columns) }
        func row(_ y: Double) -> Int { index((y - grid.originY) / grid.cellSize, rows) }
        // The grid's rectangle with a cell's margin: a wall is sampled only where it crosses it.
        let low = SIMD2(grid.originX - grid.cellSize, grid.originY - grid.cellSize)
        let high = SIMD2(grid.x(column: columns), grid.y(row: rows))
        for obstacle in obstacles {
            switch obstacle.shape {
            case .block(let corners):
                let xs = corners.map(\.x)
                let ys = corners.map(\.y)
                let (c0, c1) = (max(0, column(xs.min()!)), min(columns - 1, column(xs.max()!)))
                let (r0, r1) = (max(0, row(ys.min()!)), min(rows - 1, row(ys.max()!)))
                guard c0 <= c1, r0 <= r1 else { continue } // wholly outside the grid
                for r in r0...r1 {
                    for c in c0...c1 where obstacle.encloses(SIMD2(grid.x(column: c), grid.y(row: r))) {
                        blocked[r * columns + c] = true
                    }
                }
            case .wall(let points):
                for (start, end) in zip(points, points.dropFirst()) {
                    guard let (a, b) = Self.clip(start, end, low: low, high: high) else { continue }
                    let length = ((b - a) * (b - a)).sum().squareRoot()
                    guard length.isFinite else { continue }
                    let steps = max(1, Int((4 * length / grid.cellSize).rounded(.up)))
                    for i in 0...steps {
                        let point = a + (b - a) * (Double(i) / Double(steps))
                        let c = column(point.x)
                        let r = row(point.y)
                        if c >= 0, c < columns, r >= 0, r < rows { blocked[r * columns + c] = true }
                    }
                }
            }
        }
        walkableCount = blocked.lazy.filter { !$0 }.count
        guard walkableCount < grid.cellCount else {
            isOpen = true
            return
        }
        isOpen = false
        (rowRunStart, rowRunEnd) = Self.runs(blocked, lines: rows, length: columns) { row, i in row * columns + i }
        (columnRunStart, columnRunEnd) = Self.runs(blocked, lines: columns, length: rows) { column, i in i * columns + column }
    }

    /// Along each of `lines` lines of `length` cells (the i-th of line l is cell `cell(l, i)`),
    /// the first and last position of the walkable run holding each cell; first > last for a
    /// blocked cell.
    private static func runs(_ blocked: [Bool], lines: Int, length: Int, cell: (Int, Int) -> Int) -> (
        start: [Int16], end: [Int16]
    ) {
        var start = Array(repeating: Int16(1), count: blocked.count)
        var end = Array(repeating: Int16(0), count: blocked.count)
        for line in 0..<lines {
            var first = 0
            while first < length {
                guard !blocked[cell(line, first)] else {
                    first += 1
                    continue
                }
                var last = first
                while last + 1 < length, !blocked[cell(line, last + 1)] { last += 1 }
                for i in first...last {
                    start[cell(line, i)] = Int16(first)
                    end[cell(line, i)] = Int16(last)
                }
                first = last + 1
            }
        }
        return (start, end)
    }

    /// The part of the segment `a`–`b` inside the rectangle `low`…`high` (Liang–Barsky), `nil`
    /// when none is. A clipped end is computed on the side it crosses (its other coordinate from
    /// the segment's slope), so that a wall drawn from −10³⁰⁰ to 10³⁰⁰ m keeps its line.
    static func clip(_ a: SIMD2<Double>, _ b: SIMD2<Double>, low: SIMD2<Double>, high: SIMD2<Double>)
        -> (SIMD2<Double>, SIMD2<Double>)?
    {
        // Halves throughout: b − a overflows for ends near ±1.8·10³⁰⁸, their halves do not.
        let d = b * 0.5 - a * 0.5
        var enter = (t: 0.0, point: a)
        var leave = (t: 1.0, point: b)
        // Each side: p·t ≤ q, and the point where the segment meets it.
        let sides: [(p: Double, q: Double, meet: () -> SIMD2<Double>)] = [
            (-d.x, low.x * -0.5 + a.x * 0.5, { SIMD2(low.x, a.y + (low.x - a.x) * (d.y / d.x)) }),
            (d.x, high.x * 0.5 - a.x * 0.5, { SIMD2(high.x, a.y + (high.x - a.x) * (d.y / d.x)) }),
            (-d.y, low.y * -0.5 + a.y * 0.5, { SIMD2(a.x + (low.y - a.y) * (d.x / d.y), low.y) }),
            (d.y, high.y * 0.5 - a.y * 0.5, { SIMD2(a.x + (high.y - a.y) * (d.x / d.y), high.y) }),
        ]
        for side in sides {
            if side.p == 0 {
                guard side.q >= 0 else { return nil }
                continue
            }
            let t = side.q / side.p
            if side.p < 0, t > enter.t { enter = (t, side.meet()) }
            if side.p > 0, t < leave.t { leave = (t, side.meet()) }
        }
        guard enter.t <= leave.t, enter.t.isFinite, leave.t.isFinite else { return nil }
        return (enter.point, leave.point)
    }

    /// Whether cell `cell` (row × columns + column) can hold a person.
    @inline(__always)
    func isWalkable(_ cell: Int) -> Bool { isOpen || rowRunStart[cell] <= rowRunEnd[cell] }
}
