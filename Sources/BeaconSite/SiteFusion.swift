import BeaconCore
import BeaconRanging
import BeaconSiteReport

/// A site hub's fusion stage: gateways' per-cycle records in, one `RangedBeacon` per beacon and
/// cycle out — with the beacon's room, its position and how many gateways heard it — in the same
/// `RangingUpdate` a single gateway's ranging loop emits, so the same strategies and alert
/// engine run on it.
///
/// - **Intake.** `ReportIntake`: a report is taken whole or refused whole (`ReportRefusal`, counted by reason
///   in ``SiteFusionStatistics/refusedReports``): it must decode, come from a gateway of the
///   layout, match its topic's gateway and bucket when it has one, hold only physically possible
///   values, stay within ``SiteFusionConfiguration/maxRecordsPerReport``, and agree with its
///   gateway's clock. One gateway brings at most ``SiteFusionConfiguration/maxBeaconsPerGateway``
///   new beacons.
/// - **Time.** Each gateway's times are mapped onto the hub's clock by a per-gateway offset
///   (`GatewayClock`: robust to reports that claim another time) when reports carry a receive
///   time (a live hub), and used as they are otherwise (replay and simulation share one clock). A record belongs to the hub cycle whose
///   end is the first at or after its time. A cycle is fused once the hub's time has passed its
///   end by ``SiteFusionConfiguration/lateness``; a record that comes later still counts for
///   the following cycles, and one older than the hub keeps is dropped (both counted).
/// - **Evidence.** `FusedBeaconTable`: the tracked beacons, and for each gateway the newest
///   record of each no older than ``SiteFusionConfiguration/staleness``.
/// - **Room.** `SiteRooms`: the room whose best gateway hears the beacon loudest over the last two cycles
///   (mean RSSI), with hysteresis (``RoomHysteresis``; a room on another floor needs a larger
///   lead for longer), and a confidence (0–1). Room changes are reported as region exits
///   and entries, with the room's name as the region id, so region strategies and
///   `cancelOn: regionExit` work on rooms. The room is *unknown* — an exit of the room, no
///   position — while the evidence is too weak (``RoomHysteresis``) or every gateway of the room
///   is offline (``SiteGatewayStatus``).
/// - **Position.** `SitePositioner`: the grid filter's posterior where it tracks the beacon,
///   else weighted least squares in the RSSI domain over the gateways with a known position on
///   the beacon's floor that heard it in the cycle (at least
///   ``PositioningConfiguration/minimumGateways``), else the centroid of the strongest, smoothed
///   by a constant-velocity Kalman filter. The hub counts how each beacon was placed and files
///   the cycle's readings for self-calibration.
///
/// Memory: 128 bytes per beacon and gateway of evidence plus about 200 per beacon. Nothing is
/// allocated per record or per cycle once the tables have grown. A hub belongs to one task (its
/// tables are not checked for overlapping access at run time: nothing overlaps).
public final class SiteFusion {
    /// The site's gateways and rooms.
    public let layout: SiteLayout
    /// The fusion's settings.
    public let configuration: SiteFusionConfiguration
    /// What has been fused so far.
    @exclusivity(unchecked) public internal(set) var statistics = SiteFusionStatistics()
    /// The start of the next cycle to fuse (`nil` before the first record).
    @exclusivity(unchecked) public internal(set) var currentCycleStart: Timestamp?
    /// The latest hub time a record or ``advance(to:onUpdate:)`` has reached.
    @exclusivity(unchecked) public internal(set) var latestTime: Timestamp?

    @exclusivity(unchecked) var update = RangingUpdate(cycleStart: .epoch, time: .epoch)
    /// The tracked beacons: their index, their states, every gateway's evidence of them.
    @exclusivity(unchecked) var beacons: FusedBeaconTable
    /// The room stage: each beacon's room, and the room scores of the beacon being fused.
    @exclusivity(unchecked) var rooms: SiteRooms
    /// The hub time of the report being taken (its send time mapped onto the hub's clock).
    @exclusivity(unchecked) var reportTime: Int64 = 0
    /// The intake: a report admitted whole (its gateway, its clock) or refused whole.
    @exclusivity(unchecked) var intake: ReportIntake
    let gatewayCount: Int
    let cycleNanoseconds: Int64
    let latenessNanoseconds: Int64
    let retentionNanoseconds: Int64
    /// The position stage: the radio model, the grid filter, per-cycle fixes.
    @exclusivity(unchecked) var positioner: SitePositioner
    /// The radio model positions are solved with: the configured one, then the self-calibrated.
    var model: SiteRadioModel {
        get { positioner.model }
        set { positioner.model = newValue }
    }
    /// Self-calibration (`nil`: off, or fewer than three positioned gateways).
    @exclusivity(unchecked) var calibrator: SiteCalibrator?
    /// Which gateways are alive: their latest reports, online or offline, since when.
    @exclusivity(unchecked) var liveness: GatewayLiveness

    /// Creates a hub's fusion for `layout`.
    public init(layout: SiteLayout, configuration: SiteFusionConfiguration = SiteFusionConfiguration())
        throws(SiteConfigurationError)
    {
        try configuration.validate()
        self.layout = layout
        self.configuration = configuration
        gatewayCount = layout.gateways.count
        intake = ReportIntake(gatewayCount: gatewayCount, configuration: configuration)
        rooms = SiteRooms(layout: layout, rule: configuration.room)
        cycleNanoseconds = configuration.cycleLength.nanoseconds
        latenessNanoseconds = configuration.lateness.nanoseconds
        beacons = FusedBeaconTable(layout: layout, configuration: configuration, cycleNanoseconds: cycleNanoseconds)
        retentionNanoseconds = configuration.retention.nanoseconds
        let positioner = SitePositioner(
            layout: layout, settings: configuration.positioning, cycleSeconds: Double(cycleNanoseconds) / 1e9)
        self.positioner = positioner
        calibrator = SiteCalibrator(
            layout: layout, configuration: configuration, model: positioner.model, bounds: positioner.bounds)
        liveness = GatewayLiveness(
            count: gatewayCount, offlineAfter: configuration.gatewayOfflineAfter.nanoseconds, cycle: cycleNanoseconds)
    }

    /// Beacons being fused.
    public var trackedCount: Int { beacons.count }

    /// The update of the latest cycle fused (empty before the first), with every beacon's room
    /// and position. Keeping the copy past the next cycle makes that cycle allocate a new buffer
    /// (the fusion reuses its own): read it on demand only.
    public var latestUpdate: RangingUpdate { update }

    /// Ids of gateways that sent reports but are not in the layout (for the log).
    public var unknownGatewayIDs: [String] { intake.admission.unknownGateways.sorted() }

    // MARK: Cycles out

    /// Fuses every cycle that ended at least ``SiteFusionConfiguration/lateness`` before `now`,
    /// calling `onUpdate` with each, in order. The update is lent for the call.
    public func advance(to now: Timestamp, onUpdate: (RangingUpdate) throws -> Void) rethrows {
        if latestTime.map({ now > $0 }) ?? true { latestTime = now }
        guard var start = currentCycleStart?.nanosecondsSinceEpoch else { return }
        let limit = now.nanosecondsSinceEpoch &- latenessNanoseconds
        while start &+ cycleNanoseconds <= limit {
            if beacons.isEmpty {
                // Nothing tracked: skip the idle stretch, but fuse its last cycle (empty) when a
                // gateway goes offline or comes back by then, so that ``gatewayChanges`` says so.
                let last = (limit / cycleNanoseconds) &* cycleNanoseconds
                guard liveness.changes(at: last) else {
                    start = last
                    break
                }
                start = last &- cycleNanoseconds
            }
            let end = start &+ cycleNanoseconds
            fuseCycle(endIndex: end / cycleNanoseconds)
            currentCycleStart = Timestamp(nanosecondsSinceEpoch: end)
            try onUpdate(update)
            start = end
        }
        currentCycleStart = Timestamp(nanosecondsSinceEpoch: start)
    }

    /// Calls `body` with each gateway's evidence of `beacon` in the last fused cycle: the gateway's
    /// index and its RSSI (offset applied) — the cycle's mean when it heard the beacon in that
    /// cycle, else its latest filtered value (a gateway within its grace).
    public func forEachEvidence(of beacon: BeaconID, _ body: (_ gateway: Int, _ rssi: Double?) -> Void) {
        guard let b = beacons.row(of: beacon), let start = currentCycleStart else { return }
        beacons.evidence.forEachEvidence(ofBeacon: b, cycle: start.nanosecondsSinceEpoch / cycleNanoseconds, body)
    }

    func fuseCycle(endIndex cycle: Int64) {
        statistics.cycles += 1
        let end = cycle &* cycleNanoseconds
        let endTime = Timestamp(nanosecondsSinceEpoch: end)
        update.cycleStart = Timestamp(nanosecondsSinceEpoch: end &- cycleNanoseconds)
        update.time = endTime
        update.beacons.removeAll(keepingCapacity: true)
        update.regionEvents.removeAll(keepingCapacity: true)
        update.evicted.removeAll(keepingCapacity: true)
        calibrator?.startCycle()
        updateGatewayStatus(at: end)
        var b = 0
        while b < beacons.count {
            if let ranged = fuse(beacon: b, cycle: cycle, at: endTime) {
                update.beacons.append(ranged)
            } else if end &- beacons.states[b].lastSeen.nanosecondsSinceEpoch >= retentionNanoseconds {
                evict(b)
                continue // the last beacon moved into `b`
            }
            b += 1
        }
        if let use = calibrator?.endCycle(at: end, current: model) { model = use }
    }

    /// Removes beacon `b` (the hub has not heard it for ``SiteFusionConfiguration/retention``):
    /// it leaves its room, and the last beacon takes its place.
    func evict(_ b: Int) {
        leaveRoom(b, at: update.time)
        positioner.gridTracker?.move(beacons.count - 1, to: b)
        update.evicted.append(beacons.remove(b))
    }
}
