import BeaconCore

/// What a hub's observers learn of one fused cycle besides its beacons — the gateways that went
/// offline or came back, the radio model in use, each beacon's readings — as values filled by
/// the fusion (``SiteFusion/describeCycle(_:into:evidence:)``), so that no observer reads the
/// fusion while it fuses.
///
/// One value is kept by the hub pipeline and refilled every cycle, its buffers reused: filling
/// it allocates nothing once they have grown to the site's size.
public struct SiteCycleFacts: Sendable {
    /// The site's gateway ids, in layout order.
    public let gatewayIDs: [String]
    /// Cycles fused so far, this one included (1 at the hub's first).
    public internal(set) var cycles = 0
    /// The gateways that went offline or came back online in this cycle, each with its new
    /// status (empty in most cycles).
    public internal(set) var gatewayChanges: [SiteGatewayStatus] = []
    /// The hub's self-calibration — the model positions are solved with and its latest fit — or
    /// `nil` when calibration is off.
    public internal(set) var calibration: CalibrationStatus?
    /// Whether ``forEachEvidence(ofBeaconAt:_:)`` has this cycle's readings (they are filled only
    /// for an observer that asks for them).
    public internal(set) var hasEvidence = false
    /// Per beacon of the cycle's update, a row of ``gatewayIDs``'s count: the gateway's RSSI,
    /// `Float.infinity` where the gateway holds no evidence of it, NaN where it holds evidence
    /// without a value.
    var evidence: [Float] = []
    /// Per beacon of the cycle's update, its smoothed position, if the grid filter has one.
    var smoothed: [SmoothedPosition?] = []

    /// Facts of a site whose gateways are `gatewayIDs`, before any cycle.
    public init(gatewayIDs: [String]) {
        self.gatewayIDs = gatewayIDs
    }

    /// Calls `body` with each gateway's evidence of the beacon at `index` in the cycle's update
    /// (`RangingUpdate.beacons`), in layout order: its id and its RSSI, offset applied — the
    /// cycle's mean when it heard the beacon in that cycle, else its latest filtered value (a
    /// gateway within its grace), `nil` when it has none. Gateways without evidence are left out;
    /// nothing is called when ``hasEvidence`` is false.
    public func forEachEvidence(ofBeaconAt index: Int, _ body: (_ gateway: String, _ rssi: Double?) -> Void) {
        let width = gatewayIDs.count
        guard hasEvidence, index >= 0, (index + 1) * width <= evidence.count else { return }
        for g in 0..<width {
            let rssi = evidence[index * width + g]
            guard rssi != .infinity else { continue }
            body(gatewayIDs[g], rssi.isNaN ? nil : Double(rssi))
        }
    }

    /// The smoothed position of the beacon at `index` in the cycle's update: where the grid
    /// filter's fixed-lag smoother places it `hub.position.grid.lag` steps ago; `nil` while its
    /// track is younger than that, when it was not heard in this cycle, or without the smoother.
    public func smoothedPosition(ofBeaconAt index: Int) -> SmoothedPosition? {
        smoothed.indices.contains(index) ? smoothed[index] : nil
    }
}
