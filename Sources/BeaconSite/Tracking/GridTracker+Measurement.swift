extension GridTracker {
    /// What the measurement leaves: the posterior's mass and first moments (cell units), and the
    /// best log-likelihood of the box.
    struct Moments {
        var mass: Float = 0
        var columnSum: Float = 0
        var rowSum: Float = 0
        var best: Float = -.infinity
    }

    /// The measurement: multiplies the box by each cell's likelihood and normalises; returns
    /// `nil` when even the box's best cell misfits the readings (the track is lost), unless the
    /// box is the whole grid already. Shrinks the box to the cells (in whole vectors of columns)
    /// that keep probability.
    mutating func update(_ b: Int, box: inout GridBox, offsetPrior: Double, missLoss: Float, sigma: Float) -> Moments? {
        let columns = grid.columns
        let cells = grid.cellCount
        let base = b * cells
        let lanes = PositionGrid.lanes
        let firstColumn = Int(box.firstColumn)
        let lastColumn = Int(box.lastColumn)
        let firstRow = Int(box.firstRow)
        let lastRow = Int(box.lastRow)
        var totalWeight: Float = 0
        for reading in readings { totalWeight += reading.weight }
        let shrink = Lanes(repeating: 1 / (Float(1 / (offsetPrior * offsetPrior)) + totalWeight))
        let isWhole = box.cellCount == cells
        let inverseSigma = 16 / sigma
        var bestLanes = Lanes(repeating: -.infinity)
        // 1. Each cell's log-likelihood, eight at a time, the readings' sums in registers.
        grid.pathLoss.withUnsafeBufferPointer { loss in
            logLikelihoods.withUnsafeMutableBufferPointer { ll in
                readings.withUnsafeBufferPointer { readings in
                    missing.withUnsafeBufferPointer { missing in
                        missTable.withUnsafeBufferPointer { missTable in
                            let lossBase = UnsafeRawPointer(loss.baseAddress!)
                            let llBase = UnsafeMutableRawPointer(ll.baseAddress!)
                            let stride = MemoryLayout<Float>.stride
                            for row in firstRow...lastRow {
                                var c = row * columns + firstColumn
                                let end = row * columns + lastColumn
                                while c <= end {
                                    var s1 = Lanes(repeating: 0)
                                    var s2 = Lanes(repeating: 0)
                                    for reading in readings {
                                        let modelled = lossBase.loadUnaligned(
                                            fromByteOffset: (reading.gateway * cells + c) * stride, as: Lanes.self)
                                        let r = Lanes(repeating: reading.loss) - modelled
                                        let wr = reading.weight * r
                                        s1 += wr
                                        s2 += wr * r
                                    }
                                    var logLikelihood = -0.5 * (s2 - s1 * s1 * shrink)
                                    bestLanes = Self.larger(bestLanes, logLikelihood)
                                    for g in missing {
                                        for lane in 0..<lanes {
                                            let u = (loss[g * cells + c + lane] - missLoss) * inverseSigma + 64
                                            logLikelihood[lane] += missTable[Int(min(max(u, 0), 128))]
                                        }
                                    }
                                    llBase.storeBytes(of: logLikelihood, toByteOffset: c * stride, as: Lanes.self)
                                    c += lanes
                                }
                            }
                        }
                    }
                }
            }
        }
        let best = bestLanes.max()
        // The misfit of the best cell, without the misses: χ² of n − 1 degrees of freedom where
        // the model holds (the offset takes one).
        let expected = max(Float(readings.count) - 1, 1)
        if !isWhole && -2 * best > expected + 4 * (2 * expected).squareRoot() + 9 { return nil }
        // 2. The peak to scale by: the readings' best, unless misses moved it.
        var top = best
        if !missing.isEmpty {
            var topLanes = Lanes(repeating: -.infinity)
            logLikelihoods.withUnsafeBufferPointer { ll in
                let raw = UnsafeRawPointer(ll.baseAddress!)
                for row in firstRow...lastRow {
                    for c in Swift.stride(from: row * columns + firstColumn, through: row * columns + lastColumn, by: lanes) {
                        topLanes = Self.larger(
                            topLanes, raw.loadUnaligned(fromByteOffset: c * MemoryLayout<Float>.stride, as: Lanes.self))
                    }
                }
            }
            top = topLanes.max()
        }
        // 3. Prior × likelihood, its sum and peak.
        var totalLanes = Lanes(repeating: 0)
        var peakLanes = Lanes(repeating: 0)
        let topVector = Lanes(repeating: top)
        posteriors.withUnsafeMutableBufferPointer { p in
            logLikelihoods.withUnsafeBufferPointer { ll in
                let pBase = UnsafeMutableRawPointer(p.baseAddress! + base)
                let llBase = UnsafeRawPointer(ll.baseAddress!)
                let stride = MemoryLayout<Float>.stride
                for row in firstRow...lastRow {
                    for c in Swift.stride(from: row * columns + firstColumn, through: row * columns + lastColumn, by: lanes) {
                        let prior = pBase.loadUnaligned(fromByteOffset: c * stride, as: Lanes.self)
                        let likelihood = Self.exponential(
                            llBase.loadUnaligned(fromByteOffset: c * stride, as: Lanes.self) - topVector)
                        let value = prior * likelihood
                        pBase.storeBytes(of: value, toByteOffset: c * stride, as: Lanes.self)
                        totalLanes += value
                        peakLanes = Self.larger(peakLanes, value)
                    }
                }
            }
        }
        let total = totalLanes.sum()
        guard total > 0, total.isFinite else { return isWhole ? Moments(best: best) : nil }
        // 4. Normalise, keep the vectors above the floor, clear the rest; the moments on the way.
        let scale = Lanes(repeating: 1 / total)
        let floor = Lanes(repeating: peakLanes.max() / total * Self.supportFloor)
        var kept = GridBox(firstColumn: .max, lastColumn: -1, firstRow: .max, lastRow: -1, cycle: box.cycle)
        var massLanes = Lanes(repeating: 0)
        var columnLanes = Lanes(repeating: 0)
        var rowLanes = Lanes(repeating: 0)
        let laneOffsets = Lanes(0, 1, 2, 3, 4, 5, 6, 7)
        posteriors.withUnsafeMutableBufferPointer { p in
            let pBase = UnsafeMutableRawPointer(p.baseAddress! + base)
            let stride = MemoryLayout<Float>.stride
            for row in firstRow...lastRow {
                let rowVector = Lanes(repeating: Float(row))
                for column in Swift.stride(from: firstColumn, through: lastColumn, by: lanes) {
                    let offset = (row * columns + column) * stride
                    let value = pBase.loadUnaligned(fromByteOffset: offset, as: Lanes.self) * scale
                    pBase.storeBytes(of: value, toByteOffset: offset, as: Lanes.self)
                    massLanes += value
                    columnLanes += value * (laneOffsets + Float(column))
                    rowLanes += value * rowVector
                    if any(value .>= floor) {
                        kept.firstColumn = min(kept.firstColumn, Int16(column))
                        kept.lastColumn = max(kept.lastColumn, Int16(column + lanes - 1))
                        kept.firstRow = min(kept.firstRow, Int16(row))
                        kept.lastRow = max(kept.lastRow, Int16(row))
                    }
                }
            }
        }
        // Outside the kept box, nothing: the next step reads only the box.
        if kept.isEmpty { kept = box }
        posteriors.withUnsafeMutableBufferPointer { p in
            // Whole runs per row (a test per cell kept this loop scalar: a quarter of the update).
            func clear(_ line: UnsafeMutablePointer<Float>, from first: Int, through last: Int) {
                guard first <= last else { return }
                let run = line + first
                for i in 0..<(last - first + 1) { run[i] = 0 }
            }
            for row in firstRow...lastRow {
                let line = p.baseAddress! + base + row * columns
                if row >= Int(kept.firstRow) && row <= Int(kept.lastRow) {
                    clear(line, from: firstColumn, through: Int(kept.firstColumn) - 1)
                    clear(line, from: Int(kept.lastColumn) + 1, through: lastColumn)
                } else {
                    clear(line, from: firstColumn, through: lastColumn)
                }
            }
        }
        box = kept
        return Moments(mass: massLanes.sum(), columnSum: columnLanes.sum(), rowSum: rowLanes.sum(), best: best)
    }

    /// The larger of each pair of lanes (`pointwiseMax` is not inlined, and costs a call per vector).
    @inline(__always)
    static func larger(_ a: Lanes, _ b: Lanes) -> Lanes { a.replacing(with: b, where: b .> a) }

    /// e^x for x ≤ 0, eight at a time, to within 0.02 %: 2 raised to the nearest whole number
    /// (put in the exponent's bits) times a cubic for 2 raised to the rest. The whole number is
    /// rounded by adding 1.5 · 2²³ (the float's low bits then hold it), so that no lane converts
    /// between float and integer. Below e^−87 it gives 0.
    @inline(__always)
    static func exponential(_ x: Lanes) -> Lanes {
        let t = larger(x * 1.442_695_04, Lanes(repeating: -126))
        let magic = Lanes(repeating: 12_582_912)
        let shifted = t + magic
        let whole = shifted - magic
        let f = t - whole
        let fraction = 0.999_948_22 + f * (0.693_127_26 + f * (0.242_294_84 + f * 0.055_875_57))
        let k = unsafeBitCast(shifted, to: SIMD8<Int32>.self) &- 0x4B40_0000
        return unsafeBitCast((k &+ 127) &<< 23, to: Lanes.self) * fraction
    }
}
