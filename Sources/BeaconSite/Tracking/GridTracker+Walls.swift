extension GridTracker {
    /// The motion model's blur on a floor with walls or blocks: each cell's walking share spreads
    /// by the kernels (``kernel`` along rows, ``kernelRows`` along columns, filled by `predict`),
    /// first along its row, then along its column, over the cells of its walkable run only. The
    /// kernel's taps that would cross a wall are given back to the taps that stay in the run (its
    /// weights renormalised per cell), so no probability is lost against a wall and none passes
    /// it. Cell by cell, not vector by vector: this path costs about as many operations as the
    /// open one, without the eight-wide loops.
    mutating func blurWithinWalls(_ b: Int, from old: GridBox, into box: GridBox, radius: Int, plan: WalkableCells) {
        let columns = grid.columns
        let base = b * grid.cellCount
        let still = Float(settings.stillShare)
        let walking = 1 - still
        let firstColumn = Int(box.firstColumn)
        let lastColumn = Int(box.lastColumn)
        posteriors.withUnsafeMutableBufferPointer { p in
            scratch.withUnsafeMutableBufferPointer { t in
                logLikelihoods.withUnsafeMutableBufferPointer { v in
                    kernel.withUnsafeBufferPointer { k in
                        kernelRows.withUnsafeBufferPointer { kr in
                            // Along rows: old box → `t`, over the new box's columns.
                            for row in Int(old.firstRow)...Int(old.lastRow) {
                                let line = row * columns
                                for c in firstColumn...lastColumn { t[line + c] = 0 }
                                for s in Int(old.firstColumn)...Int(old.lastColumn) {
                                    let value = p[base + line + s]
                                    guard value > 0 else { continue }
                                    let lo = max(Int(plan.rowRunStart[line + s]), s - radius, firstColumn)
                                    let hi = min(Int(plan.rowRunEnd[line + s]), s + radius, lastColumn)
                                    Self.spread(value, from: s, over: lo, hi, kernel: k, radius: radius) { c, share in
                                        t[line + c] += share
                                    }
                                }
                            }
                            // Along columns: `t` → `v`, over the new box's rows.
                            for row in Int(box.firstRow)...Int(box.lastRow) {
                                for c in firstColumn...lastColumn { v[row * columns + c] = 0 }
                            }
                            for row in Int(old.firstRow)...Int(old.lastRow) {
                                for c in firstColumn...lastColumn {
                                    let cell = row * columns + c
                                    let value = t[cell]
                                    guard value > 0 else { continue }
                                    let lo = max(Int(plan.columnRunStart[cell]), row - radius, Int(box.firstRow))
                                    let hi = min(Int(plan.columnRunEnd[cell]), row + radius, Int(box.lastRow))
                                    Self.spread(value, from: row, over: lo, hi, kernel: kr, radius: radius) { r, share in
                                        v[r * columns + c] += share
                                    }
                                }
                            }
                            // Mixed with the still share.
                            for row in Int(box.firstRow)...Int(box.lastRow) {
                                let line = base + row * columns
                                for c in firstColumn...lastColumn {
                                    p[line + c] = still * p[line + c] + walking * v[row * columns + c]
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Hands `value` at index `source` to the indices `lo`…`hi` by the kernel's weights for the
    /// moves there (tap `radius − move`), renormalised over those indices; keeps it at `source`
    /// when the kernel gives them nothing.
    @inline(__always)
    private static func spread(
        _ value: Float, from source: Int, over lo: Int, _ hi: Int, kernel: UnsafeBufferPointer<Float>, radius: Int,
        _ add: (Int, Float) -> Void
    ) {
        guard lo <= hi else { return }
        var total: Float = 0
        for i in lo...hi { total += kernel[radius - i + source] }
        guard total > 0 else {
            if source >= lo && source <= hi { add(source, value) }
            return
        }
        let scale = value / total
        for i in lo...hi { add(i, scale * kernel[radius - i + source]) }
    }
}
