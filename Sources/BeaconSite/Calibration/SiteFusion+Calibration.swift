import BeaconCore
import BeaconSiteReport

extension SiteFusion {
    /// Moving beacons' fixes taken per cycle, at most: the window samples a crowd in turn.
    static let fixesPerCycle = 4

    /// What self-calibration has found, and the model positions are solved with.
    public var calibrationStatus: CalibrationStatus { calibration }

    /// Whether the hub calibrates (it is on, and the site has three positioned gateways).
    public var isCalibrating: Bool { calibrationFit != nil }

    /// The radio model positions are solved with now.
    public var radioModel: SiteRadioModel { model }

    /// Takes up a model saved by an earlier run (a restart keeps what the hub learned). Values set
    /// by hand win over the saved ones; a model of another layout (another gateway count) is
    /// ignored, as is one whose gateways are not this layout's.
    /// - Returns: whether the model was taken.
    @discardableResult
    public func restore(_ saved: CalibrationStatus) -> Bool {
        guard calibrationFit != nil, saved.model.receiveOffsets.count == gatewayCount,
            saved.model.exponentOffsets.count == gatewayCount,
            saved.gateways == layout.gateways.map(\.id),
            saved.model.pathLossExponent.isFinite, saved.model.tagHeight.isFinite
        else { return false }
        let settings = configuration.calibration
        var restored = saved.model
        if settings.fixedExponent {
            restored.pathLossExponent = model.pathLossExponent
            restored.exponentOffsets = model.exponentOffsets
        }
        if settings.fixedTagHeight { restored.tagHeight = model.tagHeight }
        for g in settings.fixedOffsets where g < gatewayCount { restored.receiveOffsets[g] = 0 }
        model = restored
        calibration = saved
        calibration.model = restored
        return true
    }

    /// Fits the window now (rather than at the next ``SelfCalibration/interval``), applying the
    /// fit on the same terms: a replay's first pass ends with it.
    public func calibrateNow(at time: Timestamp) {
        guard calibrationFit != nil else { return }
        calibrate(at: time)
        nextCalibration = time.nanosecondsSinceEpoch &+ configuration.calibration.interval.nanoseconds
    }

    /// Whether beacon `b`'s evidence this cycle goes into the calibration window.
    func samplesFix(_ b: Int, cycle: Int64) -> Bool {
        guard calibrationFit != nil else { return false }
        if beacons[b].anchor >= 0 { return true }
        guard fixesThisCycle < Self.fixesPerCycle else { return false }
        let stride = Int64(max(1, beacons.count / Self.fixesPerCycle))
        return (Int64(b) &+ cycle) % stride == 0
    }

    /// Files the measurements gathered for beacon `b` as a fix, solved at the tags' `height`.
    func takeFix(_ b: Int, height: Double) {
        let anchor = Int(beacons[b].anchor)
        if anchor >= 0 {
            let known = layout.anchors[anchor]
            let own = known.gateway ?? -1
            if own >= 0 { measurementScratch.removeAll { Int($0.gateway) == own } }
            guard measurementScratch.count >= 2 else { return }
            measurementScratch.withUnsafeBufferPointer {
                calibrationWindow.append($0, known: known.position, height: known.position.z, anchorGateway: own)
            }
            return
        }
        guard measurementScratch.count >= 4 else { return }
        fixesThisCycle += 1
        let place = beacons[b].lastX.isNaN ? nil : (x: beacons[b].lastX, y: beacons[b].lastY)
        measurementScratch.withUnsafeBufferPointer {
            calibrationWindow.append($0, known: nil, height: height, place: place)
        }
    }

    /// Fits the window and applies the fit when it predicts the held-back share better.
    func calibrate(at time: Timestamp) {
        guard var fit = calibrationFit else { return }
        let outcome = fit.run(calibrationWindow, current: model, configured: configuredModel)
        calibrationFit = fit
        guard outcome.verdict != .none || calibration.fits == 0 else { return }
        if outcome.verdict == .none {
            calibration.reason = outcome.reason
            calibration.fixes = outcome.fixes
            calibration.anchorMeasurements = outcome.anchorMeasurements
            return
        }
        calibration.fits += 1
        calibration.candidate = outcome.model
        calibration.verdict = outcome.verdict
        calibration.reason = outcome.reason
        calibration.fittedAt = time
        calibration.fixes = outcome.fixes
        calibration.anchorMeasurements = outcome.anchorMeasurements
        calibration.heldOutBefore = outcome.heldOutBefore
        calibration.heldOutAfter = outcome.heldOutAfter
        calibration.exponentError = outcome.exponentError
        if let use = outcome.use {
            model = use
            calibration.model = use
            if outcome.verdict == .applied { calibration.applied += 1 }
        }
    }
}
