import BeaconCore
import BeaconRanging

extension SiteFusion {
    /// Places beacon `b` for `cycle` (``SitePositioner``), counts how, and files the cycle's
    /// readings of it as a calibration fix when the calibrator samples it
    /// (``SiteCalibrator``).
    func locate(_ b: Int, cycle: Int64) -> BeaconPosition? {
        let floor = positionFloor(of: b)
        let placement = positioner.place(
            b, cycle: cycle, floor: floor, measuredPower: beacons.states[b].measuredPower, evidence: beacons.evidence,
            reporting: liveness.reporting, tracker: &beacons.states[b].tracker)
        switch placement.method {
        case .tracked: statistics.tracked += 1
        case .multilaterated: statistics.multilaterations += 1
        case .centroid: statistics.centroids += 1
        case .unplaced: break
        }
        if samplesFix(b, cycle: cycle) {
            // Self-calibration solves the fix within the posterior, not from this cycle alone.
            let state = beacons.states[b]
            calibrator?.takeFix(
                of: b, cycle: cycle, evidence: beacons.evidence,
                counts: { g in positioner.isOnFloor(gateway: g, floor) && positioner.antennas[g] != nil },
                measuredPower: state.measuredPower, anchor: state.anchor >= 0 ? layout.anchors[Int(state.anchor)] : nil,
                height: positioner.tagHeight(onFloor: floor), posterior: placement.posterior, last: (state.lastX, state.lastY))
        }
        return placement.position
    }

    /// The floor positions of beacon `b` are solved on (index into the layout's floors), -1 for
    /// none (a site without floors, or a beacon not placed on one yet: every gateway counts).
    @inline(__always)
    func positionFloor(of b: Int) -> Int {
        Int(beacons.states[b].rooms.lastFloor)
    }

    /// The grid filter's state per tracked beacon, bytes (0 with the grid filter off).
    public var gridBytesPerBeacon: Int { positioner.gridTracker?.bytesPerBeacon ?? 0 }

    /// The cells the grid filter's posteriors hold probability in, averaged over the beacons it
    /// tracks (what a step costs; 0 with the grid filter off).
    public var gridCellsPerTrackedBeacon: Double { positioner.gridTracker?.averageBoxCells ?? 0 }

    /// The side of the grid filter's cells, metres (0 with the grid filter off): the configured
    /// size, or the least wider one that keeps a posterior within `GridTracking.cellBudget` cells.
    public var gridCellSize: Double { positioner.gridTracker?.grid.cellSize ?? 0 }
}
