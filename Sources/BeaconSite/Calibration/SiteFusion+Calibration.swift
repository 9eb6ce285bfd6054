import BeaconCore
import BeaconSiteReport

extension SiteFusion {
    /// What self-calibration has found, and the model positions are solved with.
    public var calibrationStatus: CalibrationStatus {
        calibrator?.status ?? CalibrationStatus(model: model, gateways: layout.gateways.map(\.id))
    }

    /// Whether the hub calibrates (it is on, and the site has three positioned gateways).
    public var isCalibrating: Bool { calibrator != nil }

    /// The radio model positions are solved with now.
    public var radioModel: SiteRadioModel { model }

    /// Takes up a model saved by an earlier run (a restart keeps what the hub learned). Values set
    /// by hand win over the saved ones; a model of another layout (another gateway count) is
    /// ignored, as is one whose gateways are not this layout's.
    /// - Returns: whether the model was taken.
    @discardableResult
    public func restore(_ saved: CalibrationStatus) -> Bool {
        guard let restored = calibrator?.restore(saved, current: model) else { return false }
        model = restored
        return true
    }

    /// Fits the window now (rather than at the next ``SelfCalibration/interval``), applying the
    /// fit on the same terms: a replay's first pass ends with it.
    public func calibrateNow(at time: Timestamp) {
        if let use = calibrator?.fitNow(at: time, current: model) { model = use }
    }

    /// Whether beacon `b`'s evidence this cycle goes into the calibration window.
    func samplesFix(_ b: Int, cycle: Int64) -> Bool {
        calibrator?.samples(beacon: b, of: beacons.count, isAnchor: beacons.states[b].anchor >= 0, cycle: cycle) ?? false
    }
}
