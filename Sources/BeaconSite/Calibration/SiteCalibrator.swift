import BeaconCore
import BeaconSiteReport

/// The hub's self-calibration as a stage of its own: it samples fixes from the cycles the hub
/// fuses into a window, fits the window every ``SelfCalibration/interval`` and says which radio
/// model the hub is to solve positions with (`Docs/Site.md`, "Self-calibration"). The hub hands
/// it each sampled beacon's measurements and the time; it never reads the hub.
struct SiteCalibrator {
    /// Moving beacons' fixes taken per cycle, at most: the window samples a crowd in turn.
    static let fixesPerCycle = 4

    let settings: SelfCalibration
    /// The model as configured (hand-set values and defaults), before any fit.
    let configuredModel: SiteRadioModel
    /// What it has found.
    private(set) var status: CalibrationStatus
    private var fit: SiteModelFit
    private(set) var window: CalibrationWindow
    /// The sampled beacon's measurements this cycle (filled by the hub, then filed by a `take`).
    var measurements: [CalibrationWindow.Measurement] = []
    /// The hub time of the next fit (ns).
    private var nextFit: Int64 = .min
    /// Moving beacons' fixes taken this cycle.
    private var fixesThisCycle = 0

    /// A calibrator starting from `model`, the configured one.
    init(settings: SelfCalibration, model: SiteRadioModel, gatewayIDs: [String], fit: SiteModelFit) {
        self.settings = settings
        configuredModel = model
        status = CalibrationStatus(model: model, gateways: gatewayIDs)
        self.fit = fit
        window = CalibrationWindow(capacity: settings.window)
        measurements.reserveCapacity(gatewayIDs.count)
    }

    /// The calibrator of a hub for `layout`, starting from `model` and fitting positions within
    /// `bounds`; `nil` when `configuration` turns self-calibration off or fewer than three
    /// gateways have a position.
    init?(
        layout: SiteLayout, configuration: SiteFusionConfiguration, model: SiteRadioModel,
        bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    ) {
        guard configuration.calibration.enabled, layout.gateways.count(where: { $0.position != nil }) >= 3 else {
            return nil
        }
        let positioning = configuration.positioning
        self.init(
            settings: configuration.calibration, model: model, gatewayIDs: layout.gateways.map(\.id),
            fit: SiteModelFit(
                gateways: layout.gateways.map(\.position), gatewayIDs: layout.gateways.map(\.id),
                settings: configuration.calibration, exponentCentre: positioning.pathLossExponent,
                modelSigma: positioning.modelSigma, beaconPrior: positioning.offsetPrior, bounds: bounds))
    }

    /// A new cycle: its quota of moving beacons' fixes is whole again.
    mutating func startCycle() { fixesThisCycle = 0 }

    /// Whether beacon `b` (of `beaconCount`) goes into the window in `cycle`: an anchor always,
    /// moving beacons in turn, ``fixesPerCycle`` a cycle.
    func samples(beacon b: Int, of beaconCount: Int, isAnchor: Bool, cycle: Int64) -> Bool {
        if isAnchor { return true }
        guard fixesThisCycle < Self.fixesPerCycle else { return false }
        let stride = Int64(max(1, beaconCount / Self.fixesPerCycle))
        return (Int64(b) &+ cycle) % stride == 0
    }

    /// Files ``measurements`` of an anchor at its known place (without its own gateway's).
    mutating func takeAnchorFix(_ anchor: SiteAnchor) {
        let own = anchor.gateway ?? -1
        if own >= 0 { measurements.removeAll { Int($0.gateway) == own } }
        guard measurements.count >= 2 else { return }
        measurements.withUnsafeBufferPointer {
            window.append($0, known: anchor.position, height: anchor.position.z, anchorGateway: own)
        }
    }

    /// Files ``measurements`` of a moving beacon solved at the tags' `height`, placed by the hub
    /// at `place` (``CalibrationWindow/Fix/place``).
    mutating func takeFix(height: Double, place: CalibrationWindow.Place?) {
        guard measurements.count >= 4 else { return }
        fixesThisCycle += 1
        measurements.withUnsafeBufferPointer { window.append($0, known: nil, height: height, place: place) }
    }

    /// The end of a cycle at `end` (ns): fits when the interval has passed. Returns the model to
    /// solve with from now on, when it changed.
    mutating func endCycle(at end: Int64, current: SiteRadioModel) -> SiteRadioModel? {
        guard end >= nextFit else { return nil }
        let first = nextFit == .min
        nextFit = end &+ settings.interval.nanoseconds
        return first ? nil : calibrate(at: Timestamp(nanosecondsSinceEpoch: end), current: current)
    }

    /// Fits now (rather than at the next interval), on the same terms; the next fit is an
    /// interval later. Returns the model to solve with, when it changed.
    mutating func fitNow(at time: Timestamp, current: SiteRadioModel) -> SiteRadioModel? {
        let use = calibrate(at: time, current: current)
        nextFit = time.nanosecondsSinceEpoch &+ settings.interval.nanoseconds
        return use
    }

    /// Takes up a saved status (an earlier run's): values set by hand win over the saved ones.
    /// Returns the model to solve with, or `nil` when the saved one is not this layout's.
    mutating func restore(_ saved: CalibrationStatus, current: SiteRadioModel) -> SiteRadioModel? {
        let gatewayCount = current.receiveOffsets.count
        guard saved.model.receiveOffsets.count == gatewayCount, saved.model.exponentOffsets.count == gatewayCount,
            saved.gateways == status.gateways, saved.model.pathLossExponent.isFinite, saved.model.tagHeight.isFinite
        else { return nil }
        var restored = saved.model
        if settings.fixedExponent {
            restored.pathLossExponent = current.pathLossExponent
            restored.exponentOffsets = current.exponentOffsets
        }
        if settings.fixedTagHeight { restored.tagHeight = current.tagHeight }
        for g in settings.fixedOffsets where g < gatewayCount { restored.receiveOffsets[g] = 0 }
        status = saved
        status.model = restored
        return restored
    }

    /// Fits the window; the model to use when the fit is applied (or a degenerate one undone).
    private mutating func calibrate(at time: Timestamp, current: SiteRadioModel) -> SiteRadioModel? {
        let outcome = fit.run(window, current: current, configured: configuredModel)
        guard outcome.verdict != .none || status.fits == 0 else { return nil }
        if outcome.verdict == .none {
            status.reason = outcome.reason
            status.fixes = outcome.fixes
            status.anchorMeasurements = outcome.anchorMeasurements
            return nil
        }
        status.fits += 1
        status.candidate = outcome.model
        status.verdict = outcome.verdict
        status.reason = outcome.reason
        status.fittedAt = time
        status.fixes = outcome.fixes
        status.anchorMeasurements = outcome.anchorMeasurements
        status.heldOutBefore = outcome.heldOutBefore
        status.heldOutAfter = outcome.heldOutAfter
        status.exponentError = outcome.exponentError
        guard let use = outcome.use else { return nil }
        status.model = use
        if outcome.verdict == .applied { status.applied += 1 }
        return use
    }
}
