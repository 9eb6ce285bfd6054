import BeaconCore

/// The grid filter's motion model (its predict step), on one beacon's posterior at a time: over
/// the time since the beacon's previous step it either stood still (``still`` of it stays where
/// it is) or walked, and the walking share moves by the beacon's heading and spreads by a
/// Gaussian of σ = walking speed × time — separable, a pass along rows and one along columns,
/// over the box of cells that holds probability, grown by the kernel. On a floor with walls or
/// blocks the blur keeps to each cell's walkable runs (`GridMotion+Walls.swift`).
///
/// It owns the kernels and the two passes' buffers (a cell each), reused from step to step:
/// nothing is allocated per step.
struct GridMotion {
    /// The kernel's widest reach, cells each side.
    static let maximumRadius = 16

    /// The share of the probability that stays where it is (the tag stood still).
    let still: Float
    let cellSize: Double
    let columns: Int
    let rows: Int
    /// The kernels along rows and along columns (sized for the widest), and on a floor with walls
    /// their running sums.
    var kernel: [Float] = []
    var kernelRows: [Float] = []
    var kernelSums: [Float] = []
    var kernelRowSums: [Float] = []
    /// The pass along rows' output, then the pass along columns'.
    var rowPass: [Float]
    var columnPass: [Float]

    /// The motion model over `grid`'s cells, `stillShare` of the probability staying put.
    init(grid: PositionGrid, stillShare: Double) {
        still = Float(stillShare)
        cellSize = grid.cellSize
        columns = grid.columns
        rows = grid.rows
        rowPass = Array(repeating: 0, count: grid.cellCount)
        columnPass = Array(repeating: 0, count: grid.cellCount)
    }

    /// Steps `posterior` (one beacon's cells, holding probability only in `old`): the still share
    /// stays; the walking share moves by `drift` (cells: the beacon's recent heading times the
    /// time) and is blurred by σ = `spread` metres, within the walkable runs of `plan` where it
    /// has walls or blocks. Returns the box that holds probability now.
    mutating func predict(
        _ posterior: UnsafeMutablePointer<Float>, box old: GridBox, spread: Double, drift: (x: Double, y: Double),
        plan: WalkableCells
    ) -> GridBox {
        let sigmaCells = spread / cellSize
        guard sigmaCells >= 0.25 else { return old }
        let radius = min(Int((2 * sigmaCells + max(abs(drift.x), abs(drift.y))).rounded(.up)), Self.maximumRadius)
        Self.fill(&kernel, radius: radius, sigma: sigmaCells, shift: drift.x)
        Self.fill(&kernelRows, radius: radius, sigma: sigmaCells, shift: drift.y)
        let lanes = PositionGrid.lanes
        // Grown by the kernel, columns in whole vectors.
        let box = GridBox(
            firstColumn: Int16(max(0, Int(old.firstColumn) - radius) / lanes * lanes),
            lastColumn: Int16(min(columns - 1, (Int(old.lastColumn) + radius) / lanes * lanes + lanes - 1)),
            firstRow: Int16(max(0, Int(old.firstRow) - radius)), lastRow: Int16(min(rows - 1, Int(old.lastRow) + radius)),
            cycle: old.cycle)
        guard plan.isOpen else {
            blurWithinWalls(posterior, from: old, into: box, radius: radius, plan: plan)
            return box
        }
        let walking = 1 - still
        let firstColumn = Int(box.firstColumn)
        let width = Int(box.lastColumn) - firstColumn + 1
        rowPass.withUnsafeMutableBufferPointer { t in
            columnPass.withUnsafeMutableBufferPointer { v in
                kernel.withUnsafeBufferPointer { k in
                    kernelRows.withUnsafeBufferPointer { kr in
                        // Along rows, tap by tap over contiguous cells: only the old box's rows
                        // and columns hold probability. Each tap's run is counted from 0 over
                        // pointers moved to its start, so that the loop vectorises (indexed by
                        // column, `c + shift` kept an overflow check that held it to one cell
                        // at a time).
                        for row in Int(old.firstRow)...Int(old.lastRow) {
                            let out = t.baseAddress! + row * columns
                            for c in firstColumn..<(firstColumn + width) { out[c] = 0 }
                            let source = posterior + row * columns
                            for tap in 0...(2 * radius) {
                                let shift = tap - radius
                                // Output column c reads column c + shift, inside the old box.
                                let from = max(firstColumn, Int(old.firstColumn) - shift)
                                let to = min(Int(box.lastColumn), Int(old.lastColumn) - shift)
                                guard from <= to else { continue }
                                let weight = k[tap]
                                let run = out + from
                                let read = source + (from + shift)
                                for i in 0..<(to - from + 1) { run[i] += weight * read[i] }
                            }
                        }
                        // Along columns, into `v`, then mixed with the still share.
                        for row in Int(box.firstRow)...Int(box.lastRow) {
                            let out = v.baseAddress! + row * columns + firstColumn
                            for i in 0..<width { out[i] = 0 }
                            for tap in 0...(2 * radius) {
                                let sourceRow = row + tap - radius
                                guard sourceRow >= Int(old.firstRow), sourceRow <= Int(old.lastRow) else { continue }
                                let weight = kr[tap]
                                let source = t.baseAddress! + sourceRow * columns + firstColumn
                                for i in 0..<width { out[i] += weight * source[i] }
                            }
                            let cells = posterior + row * columns + firstColumn
                            for i in 0..<width { cells[i] = still * cells[i] + walking * out[i] }
                        }
                    }
                }
            }
        }
        return box
    }

    /// A normalised Gaussian of σ = `sigma` cells centred on `shift` cells, over the taps
    /// −`radius`…`radius` of a pass in which output cell c reads cell c + tap: tap t carries a move
    /// of −t cells.
    static func fill(_ kernel: inout [Float], radius: Int, sigma: Double, shift: Double) {
        let count = 2 * radius + 1
        if kernel.count < count { kernel = Array(repeating: 0, count: 2 * Self.maximumRadius + 1) }
        var total: Float = 0
        for tap in 0..<count {
            let move = Double(radius - tap) - shift
            let value = Float(naturalExponential(-0.5 * move * move / (sigma * sigma)))
            kernel[tap] = value
            total += value
        }
        for tap in 0..<count { kernel[tap] /= total }
    }
}
