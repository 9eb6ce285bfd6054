import BeaconCore

/// The cells every beacon's grid filter shares: the rectangle the hub positions in (the
/// positioned gateways' bounding box widened by the bounds margin) cut into square cells, and
/// each gateway's modelled path loss to every cell's centre.
///
/// The cell side is the configured one unless the rectangle would then need more than
/// `maxCells` cells (columns rounded up to a multiple of eight); then it is the least side that
/// does not (a beacon's posterior is one `Float` per cell, so `maxCells` bounds a tracked beacon's
/// state). The path-loss table is rebuilt when the radio model changes (a calibration applied),
/// not per beacon or cycle.
struct PositionGrid {
    /// The centre of column 0 and row 0, metres.
    let originX: Double
    let originY: Double
    /// The side of a cell, metres.
    let cellSize: Double
    let columns: Int
    let rows: Int
    let gatewayCount: Int
    /// `10·n_g·log10(ρ)` from gateway `g` to cell `c` at `g * cellCount + c` (ρ the 3-D distance
    /// at the tags' height, at least 0.5 m); NaN for a gateway without a position.
    private(set) var pathLoss: [Float]

    var cellCount: Int { columns * rows }

    /// The widest site a grid is laid over, metres a side: beyond it (a gateway's position
    /// mistyped by orders of magnitude) the hub positions without the grid filter.
    static let largestSide = 10_000.0

    /// Whether `bounds` can hold a grid: finite, and at most ``largestSide`` a side.
    static func canCover(_ bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> Bool {
        let width = bounds.maxX - bounds.minX
        let height = bounds.maxY - bounds.minY
        return width.isFinite && height.isFinite && width <= largestSide && height <= largestSide
            && (bounds.minX + bounds.maxX).isFinite && (bounds.minY + bounds.maxY).isFinite
    }

    /// The cells a row is processed in at once (`SIMD8<Float>`): ``columns`` is a multiple of it.
    static let lanes = 8

    /// A grid over `bounds` with cells of `cellSize` metres (widened to keep at most `maxCells`);
    /// `bounds` must pass ``canCover(_:)``.
    init(
        bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double), cellSize: Double, maxCells: Int,
        gatewayCount: Int
    ) {
        let width = max(bounds.maxX - bounds.minX, cellSize)
        let height = max(bounds.maxY - bounds.minY, cellSize)
        // Columns in whole lanes of `lanes` cells, so that every row is whole vectors.
        func columnCount(_ side: Double) -> Int { (Int((width / side).rounded(.up)) + Self.lanes - 1) / Self.lanes * Self.lanes }
        var side = cellSize
        // Boxes index cells with Int16: a long thin site widens its cells until both sides fit too.
        func fits(_ side: Double) -> Bool {
            let rows = Int((height / side).rounded(.up))
            return columnCount(side) * rows <= maxCells && columnCount(side) <= Int(Int16.max) && rows <= Int(Int16.max)
        }
        if !fits(side) {
            // Fewer cells never come with a smaller side: bisect to the least side that fits.
            var tooSmall = side
            while !fits(side) {
                tooSmall = side
                side *= 2
            }
            for _ in 0..<48 {
                let middle = (tooSmall + side) / 2
                if fits(middle) { side = middle } else { tooSmall = middle }
            }
        }
        columns = columnCount(side)
        rows = Int((height / side).rounded(.up))
        self.cellSize = side
        // Centred on the bounds: the rounding's slack split between both sides.
        originX = (bounds.minX + bounds.maxX) / 2 - Double(columns - 1) * side / 2
        originY = (bounds.minY + bounds.maxY) / 2 - Double(rows - 1) * side / 2
        self.gatewayCount = gatewayCount
        pathLoss = Array(repeating: .nan, count: gatewayCount * columns * rows)
    }

    /// The centre of column `column`, metres.
    @inline(__always)
    func x(column: Int) -> Double { originX + Double(column) * cellSize }

    /// The centre of row `row`, metres.
    @inline(__always)
    func y(row: Int) -> Double { originY + Double(row) * cellSize }

    /// Fills gateway `g`'s path loss to every cell: antenna at `antenna`, exponent `exponent`,
    /// tags at `tagHeight`.
    mutating func model(gateway g: Int, antenna: Vector3?, exponent: Double, tagHeight: Double) {
        let base = g * cellCount
        guard let antenna else {
            for c in 0..<cellCount { pathLoss[base + c] = .nan }
            return
        }
        let dz = antenna.z - tagHeight
        for row in 0..<rows {
            let dy = y(row: row) - antenna.y
            for column in 0..<columns {
                let dx = x(column: column) - antenna.x
                let distance = max(0.5, (dx * dx + dy * dy + dz * dz).squareRoot())
                pathLoss[base + row * columns + column] = Float(10 * exponent * logarithm10(distance))
            }
        }
    }
}
