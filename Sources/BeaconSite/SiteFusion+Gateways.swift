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

    func status(ofGateway g: Int) -> SiteGatewayStatus { liveness.status(of: g, id: layout.gateways[g].id) }

    /// Marks gateways offline or online again at `end` (``GatewayLiveness/update(at:)``); the
    /// changes of this cycle are in ``gatewayChanges``.
    func updateGatewayStatus(at end: Int64) {
        statistics.gatewaysOffline += liveness.update(at: end)
    }
}
