extension GridTracker {
    /// The posterior mean and the radius around it that holds 90 % of the probability.
    mutating func estimate(_ b: Int, box: GridBox, moments: Moments?) -> (x: Double, y: Double, radius90: Double)? {
        guard !box.isEmpty else { return nil }
        let columns = grid.columns
        let base = b * grid.cellCount
        var mass: Float = 0
        var sx: Float = 0
        var sy: Float = 0
        if let moments, moments.mass > 0 {
            (mass, sx, sy) = (moments.mass, moments.columnSum, moments.rowSum)
        } else {
            posteriors.withUnsafeBufferPointer { p in
                for row in Int(box.firstRow)...Int(box.lastRow) {
                    let line = base + row * columns
                    for column in Int(box.firstColumn)...Int(box.lastColumn) {
                        let value = p[line + column]
                        mass += value
                        sx += value * Float(column)
                        sy += value * Float(row)
                    }
                }
            }
        }
        guard mass > 0 else { return nil }
        let meanColumn = sx / mass
        let meanRow = sy / mass
        // Squared distances from the mean in bins spread over the box's diagonal²: no square root
        // per cell.
        for i in radii.indices { radii[i] = 0 }
        let bins = Float(Self.radiusBins - 1)
        let width = Float(box.lastColumn - box.firstColumn) + 1
        let height = Float(box.lastRow - box.firstRow) + 1
        let binsPerSquaredCell = bins / (width * width + height * height)
        posteriors.withUnsafeBufferPointer { p in
            radii.withUnsafeMutableBufferPointer { h in
                for row in Int(box.firstRow)...Int(box.lastRow) {
                    let line = base + row * columns
                    let dy = Float(row) - meanRow
                    for column in Int(box.firstColumn)...Int(box.lastColumn) {
                        let value = p[line + column]
                        guard value > 0 else { continue }
                        let dx = Float(column) - meanColumn
                        h[Int(min((dx * dx + dy * dy) * binsPerSquaredCell, bins))] += value
                    }
                }
            }
        }
        var cumulative: Float = 0
        var squared = bins / binsPerSquaredCell
        for i in radii.indices {
            let next = cumulative + radii[i]
            if next >= 0.9 * mass {
                let within = radii[i] > 0 ? (0.9 * mass - cumulative) / radii[i] : 0
                squared = (Float(i) + within) / binsPerSquaredCell
                break
            }
            cumulative = next
        }
        // A cell's own extent is the floor.
        let radius = max(squared.squareRoot(), 0.5)
        return (
            grid.originX + Double(meanColumn) * grid.cellSize, grid.originY + Double(meanRow) * grid.cellSize,
            Double(radius) * grid.cellSize
        )
    }
}
