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
        changedGateways.map { status(ofGateway: $0) }
    }

    /// Whether any gateway went offline or came back online in the latest fused cycle.
    public var hasGatewayChanges: Bool { !changedGateways.isEmpty }

    func status(ofGateway g: Int) -> SiteGatewayStatus {
        SiteGatewayStatus(
            gateway: layout.gateways[g].id, online: gatewayOnline[g],
            lastReport: lastReport[g] == .min ? nil : Timestamp(nanosecondsSinceEpoch: lastReport[g]),
            since: Timestamp(nanosecondsSinceEpoch: gatewaySince[g]))
    }

    /// Notes a report from gateway `g` at hub time `t` (ns).
    @inline(__always)
    func noteReport(gateway g: Int, at t: Int64) {
        if hubStart == .min { hubStart = t }
        if t > lastReport[g] { lastReport[g] = t }
    }

    /// Marks gateways offline (no report for `gatewayOfflineAfter` before `end`) or online again
    /// (a report since); the changes of this cycle are in ``gatewayChanges``.
    func updateGatewayStatus(at end: Int64) {
        changedGateways.removeAll(keepingCapacity: true)
        guard hubStart != .min else { return }
        for g in 0..<gatewayCount {
            let online = isOnline(g, at: end)
            let last = lastReport[g] == .min ? hubStart : lastReport[g]
            guard online != gatewayOnline[g] else { continue }
            gatewayOnline[g] = online
            // Offline from its last report on (plus the limit); online from the report that woke it.
            gatewaySince[g] = online ? lastReport[g] : last &+ offlineNanoseconds
            changedGateways.append(g)
            statistics.gatewaysOffline += online ? -1 : 1
        }
    }

    /// Whether gateway `g` has reported within `gatewayOfflineAfter` before `end` (the hub's start
    /// stands for a report of a gateway that never reported).
    @inline(__always)
    func isOnline(_ g: Int, at end: Int64) -> Bool {
        end &- (lastReport[g] == .min ? hubStart : lastReport[g]) < offlineNanoseconds
    }

    /// Whether ``updateGatewayStatus(at:)`` would change a gateway's state at `end`.
    func gatewayStatusChanges(at end: Int64) -> Bool {
        guard hubStart != .min else { return false }
        for g in 0..<gatewayCount {
            if isOnline(g, at: end) != gatewayOnline[g] { return true }
        }
        return false
    }

    /// Whether gateway `g` reported in the last two cycles before `end` (the window of a room's
    /// score): its silence about a beacon then means it did not hear it.
    @inline(__always)
    func isReporting(_ g: Int, at end: Int64) -> Bool {
        lastReport[g] != .min && end &- lastReport[g] < 2 &* cycleNanoseconds
    }
}
