import BeaconCore
import BeaconRanging
import BeaconSiteReport

extension SiteFusion {
    func locate(_ b: Int, cycle: Int64) -> BeaconPosition? {
        positionScratch.removeAll(keepingCapacity: true)
        let positioning = configuration.positioning
        let power = Double(beacons[b].measuredPower ?? -59)
        let modelVariance = positioning.modelSigma * positioning.modelSigma
        let tagHeight = positionHeight(of: b)
        let sampling = samplesFix(b, cycle: cycle)
        if sampling { calibrator?.measurements.removeAll(keepingCapacity: true) }
        let gridding = gridTracker != nil
        let sensitivity = gridTracker?.settings.sensitivity
        let collectsMisses = gridding && sensitivity != nil
        if gridding {
            gridTracker?.readings.removeAll(keepingCapacity: true)
            gridTracker?.missing.removeAll(keepingCapacity: true)
        }
        for g in 0..<gatewayCount where isOnPositionFloor(gateway: g, beacon: b) {
            // This cycle's sightings only: a record within its grace repeats a stale RSSI.
            let slot = evidence[evidence.index(beacon: b, gateway: g, cycle: cycle)]
            guard slot.cycle == cycle, slot.samples > 0, !slot.mean.isNaN, let point = layout.gateways[g].position else {
                if collectsMisses, liveness.online[g], layout.gateways[g].position != nil { gridTracker?.missing.append(g) }
                continue
            }
            if sampling {
                calibrator?.measurements.append(
                    CalibrationWindow.Measurement(
                        gateway: UInt16(g), samples: slot.samples, loss: Float(power) - slot.mean))
            }
            let rssi = Double(slot.mean) + model.receiveOffsets[g]
            let exponent = model.exponent(g)
            let tenN = 10 * exponent
            let loss = power - rssi
            // The gateway's own uncertainty, back in dB: σ = 10·n·log10(1 + accuracy/distance).
            let stated = slot.distance.isNaN ? 0 : Double(slot.distance)
            let innovation = slot.accuracy.isNaN || stated <= 0 ? 0 : tenN * logarithm10(1 + Double(slot.accuracy) / stated)
            let weight = 1 / (modelVariance + innovation * innovation / Double(slot.samples))
            positionScratch.append(
                PositionEvidence(
                    x: point.x, y: point.y, z: point.z, loss: loss, weight: weight, exponent: exponent, distance: 0,
                    rssi: rssi))
            if gridding { gridTracker?.readings.append(.init(gateway: g, loss: Float(loss), weight: Float(weight))) }
        }
        if gridding {
            let floor = positionFloor(of: b)
            if let tracked = gridTracker?.step(
                b, cycle: cycle, cycleSeconds: cycleSeconds, minimumReadings: positioning.minimumGateways,
                offsetPrior: positioning.offsetPrior, missLoss: Float(power - (sensitivity ?? -127)),
                sigma: Float(positioning.modelSigma), floor: floor)
            {
                // Self-calibration solves the fix within the posterior, not from this cycle alone.
                if sampling { takeFix(b, height: tagHeight, posterior: tracked) }
                statistics.tracked += 1
                let radius = gridTracker?.statedRadius(tracked.radius90, floor: floor) ?? tracked.radius90
                return BeaconPosition(x: tracked.x, y: tracked.y, z: tagHeight, error: radius / BeaconPosition.radius90Factor)
            }
        }
        if sampling { takeFix(b, height: tagHeight) }
        var fix: BeaconPosition?
        if !positionScratch.isEmpty {
            // Strongest first (insertion sort: a handful of entries).
            for i in 1..<positionScratch.count {
                var j = i
                while j > 0 && positionScratch[j].rssi > positionScratch[j - 1].rssi {
                    positionScratch.swapAt(j, j - 1)
                    j -= 1
                }
            }
            // The distances, for the centroid of the strongest four only (its one reader).
            for i in 0..<min(4, positionScratch.count) {
                // From this cycle's mean, as the fit uses: the filtered distance lags a walking tag.
                let e = positionScratch[i]
                positionScratch[i].distance = max(
                    0.1, PathLoss.distance(measuredPower: power, exponent: e.exponent, rssi: e.rssi))
            }
            fix = positionScratch.withUnsafeBufferPointer { evidence in
                if evidence.count >= positioning.minimumGateways,
                    let solved = Multilateration.solve(
                        evidence, height: tagHeight, offsetPrior: positioning.offsetPrior, bounds: bounds,
                        start: beacons[b].tracker.predicted(dt: cycleSeconds))
                {
                    statistics.multilaterations += 1
                    return solved
                }
                statistics.centroids += 1
                return Multilateration.centroid(evidence, height: tagHeight, strongest: 4)
            }
        }
        guard let q = positioning.tracking else { return fix }
        return beacons[b].tracker.step(fix: fix, dt: cycleSeconds, processNoise: q, height: tagHeight)
    }
}

extension SiteFusion {
    /// The grid filter's state per tracked beacon, bytes (0 with the grid filter off).
    public var gridBytesPerBeacon: Int { gridTracker?.bytesPerBeacon ?? 0 }

    /// The cells the grid filter's posteriors hold probability in, averaged over the beacons it
    /// tracks (what a step costs; 0 with the grid filter off).
    public var gridCellsPerTrackedBeacon: Double { gridTracker?.averageBoxCells ?? 0 }

    /// The side of the grid filter's cells, metres (0 with the grid filter off): the configured
    /// size, or the least wider one that keeps a posterior within `GridTracking.cellBudget` cells.
    public var gridCellSize: Double { gridTracker?.grid.cellSize ?? 0 }

    /// The grid filter's room outlines (`GridTracker.rooms`): every outlined room's cells, on a
    /// site of at most one floor (a room naming the one floor and a room naming none are on the
    /// same floor); `nil` for a site whose outlines hold no cell, or that has several floors (the
    /// grid does not tell floors apart: there the gateways' rule decides rooms and floors).
    static func roomCells(on grid: PositionGrid, layout: SiteLayout) -> RoomCells? {
        guard !layout.roomOutlines.isEmpty, layout.floors.count <= 1 else { return nil }
        let outlines = layout.roomOutlines.compactMap { outline in
            layout.rooms.firstIndex(of: outline.room).map { (room: $0, corners: outline.corners) }
        }
        let cells = RoomCells(grid: grid, outlines: outlines)
        return cells.isEmpty ? nil : cells
    }

    /// The grid filter's floor plans (`GridTracker.plans`): for a beacon on no known floor the
    /// obstacles drawn for every floor, then for each floor those and its own; none for a site
    /// without obstacles.
    static func floorPlans(on grid: PositionGrid, layout: SiteLayout) -> [WalkableCells] {
        guard !layout.obstacles.isEmpty else { return [] }
        return (-1..<layout.floors.count).map { floor in
            WalkableCells(
                grid: grid,
                obstacles: layout.obstacles.filter { $0.floor == nil || layout.floorIndex($0.floor) == floor })
        }
    }

    /// Fills the grid filter's path-loss tables from the radio model (at start, and whenever a
    /// calibration changes the model): each gateway at its own exponent, towards tags at the
    /// height of its floor.
    func remodelGrid() {
        guard gridTracker != nil else { return }
        for g in 0..<gatewayCount {
            let floor = layout.floorOfGateway[g]
            let height = floor >= 0 && floor < floorTagHeights.count ? floorTagHeights[floor] : model.tagHeight
            gridTracker?.model(
                gateway: g, antenna: layout.gateways[g].position, exponent: model.exponent(g), tagHeight: height)
        }
    }
}
