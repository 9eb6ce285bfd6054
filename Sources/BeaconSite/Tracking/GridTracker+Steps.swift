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
                            // pointers moved to its start, so no index can overflow and the loop
                            // vectorises (indexed by column, `c + shift` kept an overflow check in
                            // the loop and ran one cell at a time: a third of the filter's time).
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
