import BeaconCore
import BeaconRanging
import BeaconSiteReport

/// The hub's position stage: one beacon's position for one cycle, from every gateway's evidence
/// of that cycle and the radio model.
///
/// - With the grid filter (``PositioningConfiguration/gridInUse``, at least three positioned
///   gateways and a site the grid can cover) it steps the beacon's posterior over the floor area
///   (``GridTracker``) with the cycle's readings, and the gateways on its floor that did not hear
///   it as weak evidence; the position is the posterior's mean, and its stated 90 % radius the
///   posterior's (``GridTracker/statedRadius(_:floor:beacon:)``: scaled on a floor without walls
///   or blocks, by how fast the tag walks).
/// - Otherwise, and while the filter does not track the beacon yet, weighted least squares in the
///   RSSI domain over the gateways that heard it (at least
///   ``PositioningConfiguration/minimumGateways``), else the centroid of the strongest four,
///   smoothed by the beacon's Kalman filter (``PositionTracker``) when
///   ``PositioningConfiguration/tracking`` is set.
///
/// It knows the layout's geometry and the radio model, and nothing of rooms, intake or alerts:
/// ``SiteFusion`` hands it the evidence table, which gateways report and the beacon's floor,
/// and keeps what it returns. Nothing is allocated per call once its scratch has grown.
struct SitePositioner {
    /// How positions are estimated.
    let settings: PositioningConfiguration
    /// Each gateway's antenna (`nil`: not positioned), in layout order.
    let antennas: [Vector3?]
    /// Each gateway's floor (index into the layout's floors, -1: none).
    let floorOfGateway: [Int]
    /// The box positions are solved in: the positioned gateways' bounds, widened by
    /// ``PositioningConfiguration/boundsMargin``.
    let bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    /// A hub cycle, seconds.
    let cycleSeconds: Double
    /// Each floor's tag height (``floorTagHeights(layout:configured:)``).
    let floorTagHeights: [Double]
    /// The radio model positions are solved with: the configured one, then the self-calibrated.
    /// Setting it rebuilds the grid filter's path losses.
    var model: SiteRadioModel {
        didSet { remodelGrid() }
    }
    /// Every tracked beacon's posterior over the floor area (`nil`: per-cycle fixes, or fewer than
    /// three positioned gateways).
    var gridTracker: GridTracker?
    /// The cycle's readings of the beacon being placed, strongest first once sorted.
    private var scratch: [PositionEvidence] = []

    /// How a position was found.
    enum Method {
        /// The grid filter's posterior.
        case tracked
        /// Weighted least squares over this cycle's readings.
        case multilaterated
        /// The centroid of the strongest gateways (too few readings, or a fix out of bounds).
        case centroid
        /// No reading this cycle: the Kalman filter's prediction, or nothing.
        case unplaced
    }

    /// One cycle's answer for one beacon.
    struct Placement {
        /// The position a presence line states (`nil`: none).
        var position: BeaconPosition?
        /// The grid filter's posterior this cycle (its mean and 90 % radius) where it tracks the
        /// beacon: what a calibration fix is solved within.
        var posterior: (x: Double, y: Double, radius90: Double)?
        var method: Method
    }

    /// A stage for `layout`'s gateways; `cycleSeconds` long cycles.
    init(layout: SiteLayout, settings: PositioningConfiguration, cycleSeconds: Double) {
        self.settings = settings
        self.cycleSeconds = cycleSeconds
        antennas = layout.gateways.map(\.position)
        floorOfGateway = layout.floorOfGateway
        let positioned = antennas.compactMap { $0 }
        let margin = settings.boundsMargin
        bounds = (
            minX: (positioned.map(\.x).min() ?? 0) - margin, minY: (positioned.map(\.y).min() ?? 0) - margin,
            maxX: (positioned.map(\.x).max() ?? 0) + margin, maxY: (positioned.map(\.y).max() ?? 0) + margin
        )
        let height = settings.tagHeight ?? Self.defaultTagHeight(gatewayHeights: positioned.map(\.z))
        model = SiteRadioModel(
            pathLossExponent: settings.pathLossExponent, tagHeight: height,
            receiveOffsets: Array(repeating: 0, count: antennas.count))
        floorTagHeights = Self.floorTagHeights(layout: layout, configured: settings.tagHeight)
        scratch.reserveCapacity(antennas.count)
        if let grid = settings.gridInUse, positioned.count >= 3, PositionGrid.canCover(bounds) {
            let cells = PositionGrid(
                bounds: bounds, cellSize: grid.cellSize, maxCells: grid.cellBudget, gatewayCount: antennas.count)
            gridTracker = GridTracker(
                grid: cells, settings: grid, plans: Self.floorPlans(on: cells, layout: layout),
                rooms: Self.roomCells(on: cells, layout: layout))
            remodelGrid()
        }
    }

    /// Whether gateway `g` takes part in the position of a beacon on `floor` (-1: none known): it
    /// is on that floor, or the beacon or the gateway has none.
    @inline(__always)
    func isOnFloor(gateway g: Int, _ floor: Int) -> Bool {
        floor < 0 || floorOfGateway[g] < 0 || floorOfGateway[g] == floor
    }

    /// The tags' height on `floor` (-1: none known): its own, else the site's.
    @inline(__always)
    func tagHeight(onFloor floor: Int) -> Double {
        floor >= 0 && floor < floorTagHeights.count ? floorTagHeights[floor] : model.tagHeight
    }

    /// Beacon `b`'s position decided again with the readings since (the grid filter's fixed-lag
    /// smoother), when its newest step is `cycle`, which ends at `end`; `z`: its height.
    func smoothedPosition(
        of b: Int, cycle: Int64, endingAt end: Timestamp, cycleNanoseconds: Int64, z: Double
    ) -> SmoothedPosition? {
        guard let smoothed = gridTracker?.smoother?.smoothed(b, at: cycle, cycleSeconds: cycleSeconds) else {
            return nil
        }
        return SmoothedPosition(
            time: end - .nanoseconds((cycle - smoothed.cycle) * cycleNanoseconds),
            position: BeaconPosition(
                x: smoothed.x, y: smoothed.y, z: z, error: smoothed.radius90 / BeaconPosition.radius90Factor))
    }

    /// Places beacon `b` (its slot in `evidence`) for `cycle`.
    /// - Parameters:
    ///   - floor: the floor it is on (-1: none known; every gateway counts).
    ///   - measuredPower: its advertised RSSI at 1 m (-59 dBm when it states none).
    ///   - reporting: which gateways reported lately (``GatewayLiveness/reporting``): the silence
    ///     of one that did not (down, or not yet offline) says nothing of the beacon.
    ///   - tracker: its Kalman filter, stepped when the grid filter does not place it and
    ///     ``PositioningConfiguration/tracking`` is set (its prediction starts the fit).
    mutating func place(
        _ b: Int, cycle: Int64, floor: Int, measuredPower: Int8?, evidence: EvidenceTable, reporting: [Bool],
        tracker: inout PositionTracker
    ) -> Placement {
        scratch.removeAll(keepingCapacity: true)
        let power = Double(measuredPower ?? -59)
        let modelVariance = settings.modelSigma * settings.modelSigma
        let height = tagHeight(onFloor: floor)
        let gridding = gridTracker != nil
        let sensitivity = gridTracker?.settings.sensitivity
        let collectsMisses = gridding && sensitivity != nil
        if gridding {
            gridTracker?.readings.removeAll(keepingCapacity: true)
            gridTracker?.missing.removeAll(keepingCapacity: true)
        }
        for g in antennas.indices where isOnFloor(gateway: g, floor) {
            // This cycle's sightings only: a record within its grace repeats a stale RSSI.
            let slot = evidence[evidence.index(beacon: b, gateway: g, cycle: cycle)]
            guard slot.cycle == cycle, slot.samples > 0, !slot.mean.isNaN, let point = antennas[g] else {
                if collectsMisses, reporting[g], antennas[g] != nil { gridTracker?.missing.append(g) }
                continue
            }
            let rssi = Double(slot.mean) + model.receiveOffsets[g]
            let exponent = model.exponent(g)
            let tenN = 10 * exponent
            let loss = power - rssi
            // The gateway's own uncertainty, back in dB: σ = 10·n·log10(1 + accuracy/distance).
            let stated = slot.distance.isNaN ? 0 : Double(slot.distance)
            let innovation = slot.accuracy.isNaN || stated <= 0 ? 0 : tenN * logarithm10(1 + Double(slot.accuracy) / stated)
            let weight = 1 / (modelVariance + innovation * innovation / Double(slot.samples))
            scratch.append(
                PositionEvidence(
                    x: point.x, y: point.y, z: point.z, loss: loss, weight: weight, exponent: exponent, distance: 0,
                    rssi: rssi))
            if gridding { gridTracker?.readings.append(.init(gateway: g, loss: Float(loss), weight: Float(weight))) }
        }
        if gridding,
            let tracked = gridTracker?.step(
                b, cycle: cycle, cycleSeconds: cycleSeconds, minimumReadings: settings.minimumGateways,
                offsetPrior: settings.offsetPrior, missLoss: Float(power - (sensitivity ?? -127)),
                sigma: Float(settings.modelSigma), floor: floor)
        {
            let radius = gridTracker?.statedRadius(tracked.radius90, floor: floor, beacon: b) ?? tracked.radius90
            return Placement(
                position: BeaconPosition(x: tracked.x, y: tracked.y, z: height, error: radius / BeaconPosition.radius90Factor),
                posterior: tracked, method: .tracked)
        }
        let (fix, method) = fix(power: power, height: height, start: tracker.predicted(dt: cycleSeconds))
        guard let q = settings.tracking else { return Placement(position: fix, method: method) }
        return Placement(position: tracker.step(fix: fix, dt: cycleSeconds, processNoise: q, height: height), method: method)
    }

    /// This cycle's fix from ``scratch``: multilaterated from `start` with enough readings (and
    /// within ``bounds``), else the centroid of the strongest four; `nil` without readings.
    private mutating func fix(power: Double, height: Double, start: (x: Double, y: Double)?) -> (BeaconPosition?, Method) {
        guard !scratch.isEmpty else { return (nil, .unplaced) }
        // Strongest first (insertion sort: a handful of entries).
        for i in 1..<scratch.count {
            var j = i
            while j > 0 && scratch[j].rssi > scratch[j - 1].rssi {
                scratch.swapAt(j, j - 1)
                j -= 1
            }
        }
        // The distances, for the centroid of the strongest four only (its one reader).
        for i in 0..<min(4, scratch.count) {
            // From this cycle's mean, as the fit uses: the filtered distance lags a walking tag.
            let e = scratch[i]
            scratch[i].distance = max(0.1, PathLoss.distance(measuredPower: power, exponent: e.exponent, rssi: e.rssi))
        }
        let minimum = settings.minimumGateways
        let offsetPrior = settings.offsetPrior
        let bounds = bounds
        return scratch.withUnsafeBufferPointer { evidence in
            if evidence.count >= minimum,
                let solved = Multilateration.solve(
                    evidence, height: height, offsetPrior: offsetPrior, bounds: bounds, start: start)
            {
                return (solved, .multilaterated)
            }
            return (Multilateration.centroid(evidence, height: height, strongest: 4), .centroid)
        }
    }

    /// Fills the grid filter's path-loss tables from the radio model (at start, and whenever a
    /// calibration changes the model): each gateway at its own exponent, towards tags at the
    /// height of its floor.
    private mutating func remodelGrid() {
        guard gridTracker != nil else { return }
        for g in antennas.indices {
            let height = tagHeight(onFloor: floorOfGateway[g])
            gridTracker?.model(gateway: g, antenna: antennas[g], exponent: model.exponent(g), tagHeight: height)
        }
    }
}
