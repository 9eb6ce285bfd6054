import BeaconCore

extension GridTracker {
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

    /// The motion model's step of beacon `b` (``GridMotion/predict(_:box:spread:drift:plan:)``),
    /// on floor plan `plan` (an index into ``plans``).
    mutating func predict(
        _ b: Int, box old: GridBox, spread: Double, drift: (x: Double, y: Double) = (0, 0), plan: Int = 0
    ) -> GridBox {
        let base = b * grid.cellCount
        return posteriors.withUnsafeMutableBufferPointer { p in
            motion.predict(p.baseAddress! + base, box: old, spread: spread, drift: drift, plan: plans[plan])
        }
    }
}
