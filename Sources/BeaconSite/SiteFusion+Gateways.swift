import BeaconCore
import BeaconSiteReport

extension SiteFusion {
    /// Every gateway's status at the latest fused cycle, in layout order.
    public var gatewayStatuses: [SiteGatewayStatus] {
        layout.gateways.indices.map { status(ofGateway: $0) }
    }

    /// The gateways that went offline or came back online in the latest fused cycle (empty in
    /// most cycles), each with its new status. Read it from the cycle's observer.
    public var gatewayChanges: [SiteGatewayStatus] {
        liveness.changed.map { status(ofGateway: $0) }
    }

    /// Whether any gateway went offline or came back online in the latest fused cycle.
    public var hasGatewayChanges: Bool { !liveness.changed.isEmpty }

    func status(ofGateway g: Int) -> SiteGatewayStatus { liveness.status(of: g, id: layout.gateways[g].id) }

    /// Notes a report from gateway `g` at hub time `t` (ns).
    @inline(__always)
    func noteReport(gateway g: Int, at t: Int64) { liveness.noteReport(gateway: g, at: t) }

    /// Marks gateways offline or online again at `end` (``GatewayLiveness/update(at:)``); the
    /// changes of this cycle are in ``gatewayChanges``.
    func updateGatewayStatus(at end: Int64) {
        statistics.gatewaysOffline += liveness.update(at: end)
    }

    /// Whether ``updateGatewayStatus(at:)`` would change a gateway's state at `end`.
    func gatewayStatusChanges(at end: Int64) -> Bool { liveness.changes(at: end) }

    /// Whether gateway `g` reported in the last two cycles before `end`.
    @inline(__always)
    func isReporting(_ g: Int, at end: Int64) -> Bool { liveness.isReporting(g, at: end) }
}
