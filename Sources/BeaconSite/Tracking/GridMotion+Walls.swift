extension GridMotion {
    /// The motion model's blur on a floor with walls or blocks: each cell's walking share spreads
    /// by the kernels (``kernel`` along rows, ``kernelRows`` along columns, filled by `predict`),
    /// first along its row, then along its column, over the cells of its walkable run only. The
    /// kernel's taps that would cross a wall are given back to the taps that stay in the run (its
    /// weights renormalised per cell, from the kernel's running sums), so no probability is lost
    /// against a wall and none passes it. Cell by cell: the runs differ from row to row.
    mutating func blurWithinWalls(
        _ posterior: UnsafeMutablePointer<Float>, from old: GridBox, into box: GridBox, radius: Int, plan: WalkableCells
    ) {
        let walking = 1 - still
        let firstColumn = Int(box.firstColumn)
        let lastColumn = Int(box.lastColumn)
        let firstRow = Int(box.firstRow)
        let lastRow = Int(box.lastRow)
        let taps = 2 * radius + 1
        Self.runningSums(of: kernel, taps: taps, into: &kernelSums)
        Self.runningSums(of: kernelRows, taps: taps, into: &kernelRowSums)
        rowPass.withUnsafeMutableBufferPointer { t in
            columnPass.withUnsafeMutableBufferPointer { v in
                kernel.withUnsafeBufferPointer { k in
                    kernelRows.withUnsafeBufferPointer { kr in
                        kernelSums.withUnsafeBufferPointer { ks in
                            kernelRowSums.withUnsafeBufferPointer { krs in
                                // Along rows: old box → `t`, over the new box's columns. A move of
                                // m cells takes tap radius − m.
                                for row in Int(old.firstRow)...Int(old.lastRow) {
                                    let line = row * columns
                                    let out = t.baseAddress! + line
                                    for c in firstColumn...lastColumn { out[c] = 0 }
                                    for s in Int(old.firstColumn)...Int(old.lastColumn) {
                                        let value = posterior[line + s]
                                        guard value > 0 else { continue }
                                        let lo = max(Int(plan.rowRunStart[line + s]), s - radius, firstColumn)
                                        let hi = min(Int(plan.rowRunEnd[line + s]), s + radius, lastColumn)
                                        Self.spread(
                                            value, at: s, over: lo, hi, radius: radius, kernel: k, sums: ks, into: out,
                                            stride: 1)
                                    }
                                }
                                // Along columns: `t` → `v`, over the new box's rows.
                                for row in firstRow...lastRow {
                                    for c in firstColumn...lastColumn { v[row * columns + c] = 0 }
                                }
                                for row in Int(old.firstRow)...Int(old.lastRow) {
                                    for c in firstColumn...lastColumn {
                                        let cell = row * columns + c
                                        let value = t[cell]
                                        guard value > 0 else { continue }
                                        let lo = max(Int(plan.columnRunStart[cell]), row - radius, firstRow)
                                        let hi = min(Int(plan.columnRunEnd[cell]), row + radius, lastRow)
                                        Self.spread(
                                            value, at: row, over: lo, hi, radius: radius, kernel: kr, sums: krs,
                                            into: v.baseAddress! + c, stride: columns)
                                    }
                                }
                            }
                        }
                        // Mixed with the still share. A blocked cell holds nothing, even probability
                        // left there by another floor's plan (the beacon changed floor): a
                        // posterior wholly in blocked cells is then lost, and its track restarts.
                        for row in firstRow...lastRow {
                            let line = posterior + row * columns
                            for c in firstColumn...lastColumn {
                                let cell = row * columns + c
                                line[c] = plan.isWalkable(cell) ? still * line[c] + walking * v[cell] : 0
                            }
                        }
                    }
                }
            }
        }
    }

    /// Hands `value`, at position `s` of a line, to positions `lo`…`hi` of `out` (`stride` cells
    /// apart) by the kernel's weights for those moves (a move of m takes tap radius − m),
    /// renormalised by their sum from the running sums `sums`; keeps it at `s` when the kernel
    /// gives them nothing. Nothing when `lo` > `hi` (a blocked cell).
    @inline(__always)
    private static func spread(
        _ value: Float, at s: Int, over lo: Int, _ hi: Int, radius: Int, kernel: UnsafeBufferPointer<Float>,
        sums: UnsafeBufferPointer<Float>, into out: UnsafeMutablePointer<Float>, stride: Int
    ) {
        guard lo <= hi else { return }
        // Taps radius − (hi − s) … radius − (lo − s), summed.
        let total = sums[radius - lo + s + 1] - sums[radius - hi + s]
        guard total > 0 else {
            out[s * stride] += value
            return
        }
        let scale = value / total
        let taps = kernel.baseAddress! + radius + s
        for i in lo...hi { out[i * stride] += scale * taps[-i] }
    }

    /// `sums[i]` = the first `i` of `kernel`'s `taps` weights, summed (`sums[0]` = 0).
    private static func runningSums(of kernel: [Float], taps: Int, into sums: inout [Float]) {
        if sums.count < taps + 1 { sums = Array(repeating: 0, count: 2 * Self.maximumRadius + 2) }
        var total: Float = 0
        sums[0] = 0
        for i in 0..<taps {
            total += kernel[i]
            sums[i + 1] = total
        }
    }
}
