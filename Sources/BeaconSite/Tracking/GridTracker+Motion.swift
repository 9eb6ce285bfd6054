import BeaconCore

extension GridTracker {
    typealias Lanes = SIMD8<Float>

    /// A uniform posterior over the walkable cells of floor plan `plan` (an index into ``plans``).
    mutating func start(_ b: Int, cycle: Int64, plan: Int = 0) -> GridBox {
        let cells = grid.cellCount
        let walkable = plans[plan]
        let uniform = 1 / Float(walkable.walkableCount)
        posteriors.withUnsafeMutableBufferPointer { p in
            for c in 0..<cells { p[b * cells + c] = walkable.isWalkable(c) ? uniform : 0 }
        }
        return GridBox.full(columns: grid.columns, rows: grid.rows, cycle: cycle)
    }

    /// Sets `box`'s cells of beacon `b` to 0.
    mutating func clear(_ b: Int, box: GridBox) {
        guard !box.isEmpty else { return }
        let base = b * grid.cellCount
        let columns = grid.columns
        posteriors.withUnsafeMutableBufferPointer { p in
            for row in Int(box.firstRow)...Int(box.lastRow) {
                for column in Int(box.firstColumn)...Int(box.lastColumn) { p[base + row * columns + column] = 0 }
            }
        }
    }

    /// The motion model: the still share stays; the walking share moves by `drift` (cells, the
    /// beacon's recent heading times the time) and is blurred by σ = `spread`, within the
    /// walkable runs of floor plan `plan` where it has walls or blocks.
    mutating func predict(
        _ b: Int, box old: GridBox, spread: Double, drift: (x: Double, y: Double) = (0, 0), plan: Int = 0
    ) -> GridBox {
        let sigmaCells = spread / grid.cellSize
        guard sigmaCells >= 0.25 else { return old }
        let radius = min(Int((2 * sigmaCells + max(abs(drift.x), abs(drift.y))).rounded(.up)), Self.maximumRadius)
        Self.fill(&kernel, radius: radius, sigma: sigmaCells, shift: drift.x)
        Self.fill(&kernelRows, radius: radius, sigma: sigmaCells, shift: drift.y)
        let columns = grid.columns
        let lanes = PositionGrid.lanes
        // Grown by the kernel, columns in whole vectors.
        let box = GridBox(
            firstColumn: Int16(max(0, Int(old.firstColumn) - radius) / lanes * lanes),
            lastColumn: Int16(min(columns - 1, (Int(old.lastColumn) + radius) / lanes * lanes + lanes - 1)),
            firstRow: Int16(max(0, Int(old.firstRow) - radius)), lastRow: Int16(min(grid.rows - 1, Int(old.lastRow) + radius)),
            cycle: old.cycle)
        guard plans[plan].isOpen else {
            blurWithinWalls(b, from: old, into: box, radius: radius, plan: plans[plan])
            return box
        }
        let base = b * grid.cellCount
        let still = Float(settings.stillShare)
        let walking = 1 - still
        let firstColumn = Int(box.firstColumn)
        let width = Int(box.lastColumn) - firstColumn + 1
        posteriors.withUnsafeMutableBufferPointer { p in
            scratch.withUnsafeMutableBufferPointer { t in
                logLikelihoods.withUnsafeMutableBufferPointer { v in
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
                                let source = p.baseAddress! + base + row * columns
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
                                let cells = p.baseAddress! + base + row * columns + firstColumn
                                for i in 0..<width { cells[i] = still * cells[i] + walking * out[i] }
                            }
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
