import BeaconAlertEngine
import BeaconCore
import BeaconSite
import BeaconSiteReport
import BeaconStrategyKit

extension AlertPipeline {
    /// Builds a site hub's pipeline: gateways' reports in (``ingest(reports:refused:emit:)``),
    /// fused beacons to the strategies, whose rooms are the regions strategies may name.
    /// - Parameters:
    ///   - definitions: the alerts to run, in order.
    ///   - maxPending: the engine's bound on pending alerts.
    ///   - registry: where the alerts' strategies come from.
    ///   - store: where the engine (and, if it keeps them, the strategies) keep their state.
    ///   - site: the hub's fusion of its gateways' reports.
    /// - Throws: ``PipelineError`` naming the alert whose strategy or policy is invalid.
    public convenience init(
        alerts definitions: [PipelineAlert], maxPending: Int = AlertEngineConfiguration.defaultMaxPending,
        registry: StrategyRegistry, store: any AlertStateStore = InMemoryAlertStateStore(), site: SiteFusion
    ) throws(PipelineError) {
        try self.init(alerts: definitions, front: .site(site), maxPending: maxPending, registry: registry, store: store)
    }

    /// Takes gateways' reports (a site hub's pipeline) and runs every cycle they complete —
    /// the fused beacons — through strategies and engine, as one input.
    ///
    /// The reports' times are the clock, as packets are for one gateway: the fusion closes each
    /// cycle once its lateness has passed. A report the fusion refuses (malformed, from an
    /// unknown gateway, off its topic, out of range, against its gateway's clock …) is counted by
    /// reason in the site's statistics (`SiteFusionStatistics.refusedReports`) and handed to
    /// `refused`; nothing of it is used.
    /// - Throws: ``PipelineError/input(_:)`` on a gateway's pipeline, which takes packets.
    public func ingest(
        reports: [GatewayReportMessage], refused: (ReportRefusal) -> Void = { _ in },
        emit: (RoutedEvent) throws -> Void
    ) throws {
        guard case .site(let site) = front else {
            throw PipelineError.input("gateways' reports reach only a site hub's pipeline; this one ranges packets")
        }
        let reached = try site.ingest(reports: reports, refused: refused) { try decideEverywhere($0) }
        if let reached { reach(reached) }
        try endInputEverywhere(cycleClock: site.cycleClock, emit: emit)
    }

    /// How long after a cycle's end a site hub fuses it (zero for one gateway's pipeline): what a
    /// source's end adds so that the last cycle is closed.
    public var siteLateness: Duration { front.lateness }

    /// Calls `observer` with each cycle a site hub fuses, before strategies see it, and what the
    /// cycle tells besides its beacons (`SiteCycleFacts`: the gateways that changed, the
    /// calibration, with `evidence` each beacon's readings by gateway) — values filled by the
    /// fusion, so that an observer never reads the hub while it fuses. Both are lent for the call,
    /// on the pipeline's task. It takes the place of ``cycleObserver``.
    /// - Throws: ``PipelineError/input(_:)`` on a gateway's pipeline, which fuses no cycles.
    public func observeSiteCycles(
        evidence: Bool, _ observer: @escaping (RangingUpdate, SiteCycleFacts) -> Void
    ) throws(PipelineError) {
        guard case .site(let site) = front else {
            throw PipelineError.input("only a site hub's pipeline fuses cycles; this one ranges packets")
        }
        var facts = SiteCycleFacts(gatewayIDs: site.layout.gateways.map(\.id))
        cycleObserver = { update in
            site.describeCycle(update, into: &facts, evidence: evidence)
            observer(update, facts)
        }
    }

    /// A site hub's self-calibration: the model its positions are solved with and its latest
    /// fit (`nil` for one gateway, or when calibration is off).
    public var siteCalibration: CalibrationStatus? {
        guard case .site(let site) = front, site.isCalibrating else { return nil }
        return site.calibrationStatus
    }

    /// Takes up a calibrated model saved by an earlier run (see `SiteFusion.restore(_:)`).
    /// - Returns: whether it was taken (a hub that calibrates, a model of this layout).
    @discardableResult
    public func restoreSiteCalibration(_ saved: CalibrationStatus) -> Bool {
        guard case .site(let site) = front else { return false }
        return site.restore(saved)
    }
}
