import BeaconCore

/// Every tracked beacon's position as a probability over the cells of a `PositionGrid`: a
/// Bayesian grid filter, stepped once per cycle the beacon is heard in.
///
/// - **Motion** (predict): over the time since the beacon's previous step, it either stood still
///   or walked; the walking share spreads the probability by a Gaussian of σ = walking speed ×
///   time (separable, two passes over the box).
/// - **Measurement** (update): each gateway that heard the beacon gives the cycle's mean path
///   loss; in a cell at ρ from it the model expects `10·n·log10(ρ)` plus one offset common to all
///   gateways (a tag in a pocket, a wrong measured power), which is marginalised analytically
///   under its prior. Per cell, with residuals r_g and weights w_g (1/σ_g²):
///   `log L = −½ (Σ w r² − (Σ w r)² / (1/τ² + Σ w))`. A positioned gateway on the beacon's floor
///   that did not hear it is evidence too, weakly: it would have missed the beacon with
///   probability `ε + (1 − ε)·Φ((ρ's loss − (power − sensitivity)) / σ)`.
/// - **Support.** Only a box of cells holds probability (`GridBox`); the box grows by the motion
///   kernel and shrinks to the cells above 10⁻³ of the peak. A beacon whose best cell in the box
///   fits its readings badly (the track was lost: it was carried off while unheard, or the
///   first cycles misled it) starts again from the whole grid.
///
/// The estimate is the posterior mean; its 90 % radius is the distance from the mean that holds
/// 90 % of the probability. Nothing is allocated per step once a beacon's cells exist.
struct GridTracker {
    /// One gateway's reading of the beacon in the cycle.
    struct Reading {
        var gateway: Int
        /// The cycle's mean path loss, dB (measured power minus mean RSSI, offset applied).
        var loss: Float
        /// 1/σ² of that loss.
        var weight: Float
    }

    private(set) var grid: PositionGrid
    let settings: GridTracking
    /// The beacons' posteriors, `cellCount` each, in the hub's beacon order.
    private var posteriors: [Float] = []
    private(set) var boxes: [GridBox] = []
    /// This step's readings and missing gateways (filled by the caller).
    var readings: [Reading] = []
    var missing: [Int] = []
    private var sum1: [Float]
    private var sum2: [Float]
    private var scratch: [Float]
    private var kernel: [Float] = []
    private var radii: [Float] = Array(repeating: 0, count: GridTracker.radiusBins)
    /// log P(miss) by standardised margin, from −4σ to +4σ in 1/16 σ steps.
    private let missTable: [Float]

    static let radiusBins = 128
    /// Below this share of the peak, a cell drops out of the box (its probability is set to 0).
    static let supportFloor: Float = 1e-3
    /// Misses are weak evidence: a gateway misses a beacon it should hear this often anyway
    /// (scanning windows, collisions, a busy radio).
    static let missFloor = 0.5
    /// Past this much spread in one step (the beacon unheard for long), the track restarts.
    static let maximumSpread = 6.0

    init(grid: PositionGrid, settings: GridTracking) {
        self.grid = grid
        self.settings = settings
        sum1 = Array(repeating: 0, count: grid.cellCount)
        sum2 = Array(repeating: 0, count: grid.cellCount)
        scratch = Array(repeating: 0, count: grid.cellCount)
        missTable = (0...128).map { i in
            let u = Double(i - 64) / 16
            return Float(naturalLogarithm(Self.missFloor + (1 - Self.missFloor) * normalCDF(u)))
        }
        readings.reserveCapacity(grid.gatewayCount)
        missing.reserveCapacity(grid.gatewayCount)
    }

    /// Memory per tracked beacon, bytes.
    var bytesPerBeacon: Int { grid.cellCount * MemoryLayout<Float>.stride + MemoryLayout<GridBox>.stride }

    /// The cells of the tracked beacons' boxes, on average.
    var averageBoxCells: Double {
        let tracked = boxes.filter { !$0.isEmpty }
        return tracked.isEmpty ? 0 : Double(tracked.reduce(0) { $0 + $1.cellCount }) / Double(tracked.count)
    }

    /// Rebuilds gateway `g`'s path losses (the radio model changed).
    mutating func model(gateway g: Int, antenna: Vector3?, exponent: Double, tagHeight: Double) {
        grid.model(gateway: g, antenna: antenna, exponent: exponent, tagHeight: tagHeight)
    }

    /// Whether beacon `b` has a posterior.
    func isTracking(_ b: Int) -> Bool { b < boxes.count && !boxes[b].isEmpty }

    /// Forgets beacon `b`'s posterior.
    mutating func forget(_ b: Int) {
        guard b < boxes.count, !boxes[b].isEmpty else { return }
        clear(b, box: boxes[b])
        boxes[b] = GridBox()
    }

    /// Beacon `last` takes the place of beacon `b` (which the hub evicted); `last` goes.
    mutating func move(_ last: Int, to b: Int) {
        forget(b)
        if last < boxes.count {
            if last != b {
                let cells = grid.cellCount
                boxes[b] = boxes[last]
                if !boxes[last].isEmpty {
                    posteriors.withUnsafeMutableBufferPointer { p in
                        for c in 0..<cells { p[b * cells + c] = p[last * cells + c] }
                    }
                    clear(last, box: boxes[last])
                }
            }
            boxes[last] = GridBox()
        }
    }

    /// Steps beacon `b` to `cycle` with ``readings`` and ``missing``; returns its position and 90 %
    /// radius, or `nil` when it has no posterior and fewer than `minimumReadings` readings.
    /// - Parameters:
    ///   - cycleSeconds: the hub's cycle length.
    ///   - offsetPrior: τ of the common offset, dB.
    ///   - missLoss: the path loss past which a gateway cannot hear this beacon (its measured
    ///     power minus the sensitivity), dB.
    ///   - sigma: the model's spread, dB (for misses).
    mutating func step(
        _ b: Int, cycle: Int64, cycleSeconds: Double, minimumReadings: Int, offsetPrior: Double, missLoss: Float,
        sigma: Float
    ) -> (x: Double, y: Double, radius90: Double)? {
        let cells = grid.cellCount
        if boxes.count <= b {
            boxes.append(contentsOf: repeatElement(GridBox(), count: b + 1 - boxes.count))
            posteriors.append(contentsOf: repeatElement(0, count: (b + 1) * cells - posteriors.count))
        }
        var box = boxes[b]
        if box.isEmpty {
            guard readings.count >= minimumReadings else { return nil }
            box = start(b, cycle: cycle)
        } else if !readings.isEmpty {
            let spread = settings.walkingSpeed * Double(cycle - box.cycle) * cycleSeconds
            if spread > Self.maximumSpread {
                clear(b, box: box)
                box = start(b, cycle: cycle)
            } else {
                box = predict(b, box: box, spread: spread)
            }
        }
        if !readings.isEmpty {
            box.cycle = cycle
            if !update(b, box: &box, offsetPrior: offsetPrior, missLoss: missLoss, sigma: sigma) {
                // Lost: the best cell in the box misfits; start again from the whole grid.
                clear(b, box: box)
                box = start(b, cycle: cycle)
                _ = update(b, box: &box, offsetPrior: offsetPrior, missLoss: missLoss, sigma: sigma)
            }
        }
        boxes[b] = box
        return estimate(b, box: box)
    }

    // MARK: The steps

    private mutating func start(_ b: Int, cycle: Int64) -> GridBox {
        let cells = grid.cellCount
        let uniform = 1 / Float(cells)
        posteriors.withUnsafeMutableBufferPointer { p in
            for c in 0..<cells { p[b * cells + c] = uniform }
        }
        return GridBox.full(columns: grid.columns, rows: grid.rows, cycle: cycle)
    }

    private mutating func clear(_ b: Int, box: GridBox) {
        guard !box.isEmpty else { return }
        let base = b * grid.cellCount
        let columns = grid.columns
        posteriors.withUnsafeMutableBufferPointer { p in
            for row in Int(box.firstRow)...Int(box.lastRow) {
                for column in Int(box.firstColumn)...Int(box.lastColumn) { p[base + row * columns + column] = 0 }
            }
        }
    }

    /// The motion model: the still share stays, the walking share is blurred by σ = `spread`.
    private mutating func predict(_ b: Int, box old: GridBox, spread: Double) -> GridBox {
        let sigmaCells = spread / grid.cellSize
        guard sigmaCells >= 0.25 else { return old }
        let radius = min(Int((2 * sigmaCells).rounded(.up)), 16)
        if kernel.count != 2 * radius + 1 || kernel.isEmpty || kernelSigma != sigmaCells {
            kernel = (-radius...radius).map { Float(naturalExponential(-0.5 * Double($0 * $0) / (sigmaCells * sigmaCells))) }
            let total = kernel.reduce(0, +)
            for i in kernel.indices { kernel[i] /= total }
            kernelSigma = sigmaCells
        }
        let columns = grid.columns
        let box = GridBox(
            firstColumn: Int16(max(0, Int(old.firstColumn) - radius)),
            lastColumn: Int16(min(columns - 1, Int(old.lastColumn) + radius)),
            firstRow: Int16(max(0, Int(old.firstRow) - radius)), lastRow: Int16(min(grid.rows - 1, Int(old.lastRow) + radius)),
            cycle: old.cycle)
        let base = b * grid.cellCount
        let still = Float(settings.stillShare)
        let walking = 1 - still
        let firstColumn = Int(box.firstColumn)
        let width = Int(box.lastColumn) - firstColumn + 1
        posteriors.withUnsafeMutableBufferPointer { p in
            scratch.withUnsafeMutableBufferPointer { t in
                sum1.withUnsafeMutableBufferPointer { v in
                    kernel.withUnsafeBufferPointer { k in
                        // Along rows, tap by tap over contiguous cells (the loops vectorise): only
                        // the old box's rows and columns hold probability.
                        for row in Int(old.firstRow)...Int(old.lastRow) {
                            let out = t.baseAddress! + row * columns + firstColumn
                            for i in 0..<width { out[i] = 0 }
                            let source = p.baseAddress! + base + row * columns
                            for tap in 0...(2 * radius) {
                                let shift = tap - radius
                                // Output column c reads column c + shift, inside the old box.
                                let from = max(firstColumn, Int(old.firstColumn) - shift)
                                let to = min(Int(box.lastColumn), Int(old.lastColumn) - shift)
                                guard from <= to else { continue }
                                let weight = k[tap]
                                let o = t.baseAddress! + row * columns
                                for c in from...to { o[c] += weight * source[c + shift] }
                            }
                        }
                        // Along columns, into `v`, then mixed with the still share.
                        for row in Int(box.firstRow)...Int(box.lastRow) {
                            let out = v.baseAddress! + row * columns + firstColumn
                            for i in 0..<width { out[i] = 0 }
                            for tap in 0...(2 * radius) {
                                let sourceRow = row + tap - radius
                                guard sourceRow >= Int(old.firstRow), sourceRow <= Int(old.lastRow) else { continue }
                                let weight = k[tap]
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
        return box
    }
    private var kernelSigma = 0.0

    /// The measurement: multiplies the box by each cell's likelihood and normalises; returns
    /// `false` when even the box's best cell misfits the readings (the track is lost), unless the
    /// box is the whole grid already. Shrinks the box to the cells that keep probability.
    private mutating func update(_ b: Int, box: inout GridBox, offsetPrior: Double, missLoss: Float, sigma: Float) -> Bool {
        let columns = grid.columns
        let cells = grid.cellCount
        let base = b * cells
        let firstColumn = Int(box.firstColumn)
        let lastColumn = Int(box.lastColumn)
        var totalWeight: Float = 0
        for reading in readings { totalWeight += reading.weight }
        let shrink = 1 / (Float(1 / (offsetPrior * offsetPrior)) + totalWeight)
        var best = -Float.infinity
        var peak: Float = 0
        var total: Float = 0
        let isWhole = box.cellCount == cells
        let inverseSigma = 16 / sigma
        let fitted = grid.pathLoss.withUnsafeBufferPointer { loss in
            sum1.withUnsafeMutableBufferPointer { s1 in
                sum2.withUnsafeMutableBufferPointer { s2 in
                    posteriors.withUnsafeMutableBufferPointer { p in
                        missTable.withUnsafeBufferPointer { missTable in
                            for row in Int(box.firstRow)...Int(box.lastRow) {
                                let line = row * columns
                                for column in firstColumn...lastColumn {
                                    s1[line + column] = 0
                                    s2[line + column] = 0
                                }
                                for reading in readings {
                                    let l = reading.gateway * cells + line
                                    for column in firstColumn...lastColumn {
                                        let r = reading.loss - loss[l + column]
                                        let wr = reading.weight * r
                                        s1[line + column] += wr
                                        s2[line + column] += wr * r
                                    }
                                }
                                for column in firstColumn...lastColumn {
                                    let c = line + column
                                    let s = s1[c]
                                    let logLikelihood = -0.5 * (s2[c] - s * s * shrink)
                                    s1[c] = logLikelihood
                                    if logLikelihood > best { best = logLikelihood }
                                }
                                for g in missing {
                                    let l = g * cells + line
                                    for column in firstColumn...lastColumn {
                                        let u = (loss[l + column] - missLoss) * inverseSigma + 64
                                        let i = Int(min(max(u, 0), 128))
                                        s1[line + column] += missTable[i]
                                    }
                                }
                            }
                            // The misfit of the best cell, without the misses: χ² of n − 1 degrees of
                            // freedom where the model holds (the offset takes one).
                            let n = Float(readings.count)
                            let expected = max(n - 1, 1)
                            if !isWhole && -2 * best > expected + 4 * (2 * expected).squareRoot() + 9 { return false }
                            // The peak to scale by: the readings' best, unless misses moved it.
                            var top = missing.isEmpty ? best : -Float.infinity
                            for row in Int(box.firstRow)...Int(box.lastRow) where !missing.isEmpty {
                                let line = row * columns
                                for column in firstColumn...lastColumn where s1[line + column] > top {
                                    top = s1[line + column]
                                }
                            }
                            for row in Int(box.firstRow)...Int(box.lastRow) {
                                let line = row * columns
                                for column in firstColumn...lastColumn {
                                    let c = line + column
                                    let value = p[base + c] * Self.exponential(s1[c] - top)
                                    p[base + c] = value
                                    total += value
                                    if value > peak { peak = value }
                                }
                            }
                            return true
                        }
                    }
                }
            }
        }
        guard fitted else { return false }
        guard total > 0, total.isFinite else { return isWhole }
        let scale = 1 / total
        let floor = peak * scale * Self.supportFloor
        var kept = GridBox(firstColumn: .max, lastColumn: -1, firstRow: .max, lastRow: -1, cycle: box.cycle)
        posteriors.withUnsafeMutableBufferPointer { p in
            for row in Int(box.firstRow)...Int(box.lastRow) {
                let line = base + row * columns
                for column in firstColumn...lastColumn {
                    let value = p[line + column] * scale
                    p[line + column] = value
                    if value >= floor {
                        kept.firstColumn = min(kept.firstColumn, Int16(column))
                        kept.lastColumn = max(kept.lastColumn, Int16(column))
                        kept.firstRow = min(kept.firstRow, Int16(row))
                        kept.lastRow = max(kept.lastRow, Int16(row))
                    }
                }
            }
            // Outside the kept box, nothing: the next step reads only the box.
            for row in Int(box.firstRow)...Int(box.lastRow) {
                let line = base + row * columns
                let inside = row >= Int(kept.firstRow) && row <= Int(kept.lastRow)
                for column in firstColumn...lastColumn
                where !inside || column < Int(kept.firstColumn) || column > Int(kept.lastColumn) {
                    p[line + column] = 0
                }
            }
        }
        box = kept
        return true
    }

    /// e^x for x ≤ 0, to within 0.013 % (a cubic for 2 raised to the fraction, the exponent put
    /// in the bits): a quarter of `expf`'s cost, and the loop around it vectorises. Below e^−87
    /// it gives 0.
    @inline(__always)
    static func exponential(_ x: Float) -> Float {
        let t = max(x * 1.442_695_04, -126)
        let whole = t.rounded(.down)
        let f = t - whole
        let fraction = 1 + f * (0.695_428_52 + f * (0.226_946_11 + f * 0.077_375_39))
        return Float(bitPattern: UInt32(Int32(whole) + 127) << 23) * fraction
    }

    /// The posterior mean and the radius around it that holds 90 % of the probability.
    private mutating func estimate(_ b: Int, box: GridBox) -> (x: Double, y: Double, radius90: Double)? {
        guard !box.isEmpty else { return nil }
        let columns = grid.columns
        let base = b * grid.cellCount
        var mass: Float = 0
        var sx: Float = 0
        var sy: Float = 0
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
        guard mass > 0 else { return nil }
        let meanColumn = sx / mass
        let meanRow = sy / mass
        // Distances from the mean in bins of half a cell.
        for i in radii.indices { radii[i] = 0 }
        let bins = Float(Self.radiusBins - 1)
        posteriors.withUnsafeBufferPointer { p in
            radii.withUnsafeMutableBufferPointer { h in
                for row in Int(box.firstRow)...Int(box.lastRow) {
                    let line = base + row * columns
                    let dy = Float(row) - meanRow
                    for column in Int(box.firstColumn)...Int(box.lastColumn) {
                        let dx = Float(column) - meanColumn
                        h[Int(min((dx * dx + dy * dy).squareRoot() * 2, bins))] += p[line + column]
                    }
                }
            }
        }
        var cumulative: Float = 0
        var radius = bins / 2
        for i in radii.indices {
            let next = cumulative + radii[i]
            if next >= 0.9 * mass {
                // Within the bin, linearly; a cell's own extent is the floor.
                let within = radii[i] > 0 ? (0.9 * mass - cumulative) / radii[i] : 0
                radius = max((Float(i) + within) / 2, 0.5)
                break
            }
            cumulative = next
        }
        return (
            grid.originX + Double(meanColumn) * grid.cellSize, grid.originY + Double(meanRow) * grid.cellSize,
            Double(radius) * grid.cellSize
        )
    }
}
