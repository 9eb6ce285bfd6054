import BeaconCore
import BeaconRanging
import BeaconSiteReport
import CBeaconPrefetch

/// The beacons a hub tracks: one ``BeaconIndex`` over their ids, each one's state between cycles,
/// and every gateway's recent evidence of it — the stage a report's records are filed into, and
/// that the room rule, the positions and the observers read.
///
/// Beacon `b` is row `b` of ``states``, ``ids`` and ``evidence``; removing one moves the last into
/// its place. Nothing is allocated per record once the rows exist.
struct FusedBeaconTable {
    /// What filing needs to know of the report being taken: the same for each of its records.
    struct Filing {
        let gateway: Int
        /// The gateway's clock offset, ns.
        let offset: Int64
        /// The hub cycle the report's records belong to.
        let cycle: Int64
        /// The cycle is older than the evidence the hub keeps: the records are counted and dropped.
        let stale: Bool
        /// The cycle is already fused: the records still count for the following cycles.
        let late: Bool
        let rssiOffset: Double
    }

    /// Each beacon's row, by id.
    private(set) var index = BeaconIndex()
    /// Each beacon's identity: what a lookup in ``index`` is confirmed against (24 bytes a
    /// beacon, so it stays in cache while ``states`` does not).
    private(set) var ids: [BeaconID] = []
    /// What the hub remembers of each beacon.
    var states: [FusedBeaconState] = []
    /// Every gateway's recent records of every beacon.
    private(set) var evidence: EvidenceTable
    /// Beacons each gateway brought in (for ``SiteFusionConfiguration/maxBeaconsPerGateway``).
    private var introducedByGateway: [Int]
    /// The row of each record of the report being filed (−1: not tracked yet).
    private var known: [Int] = []
    private let maxTracked: Int
    private let maxBeaconsPerGateway: Int
    private let anchorIndexByID: [BeaconID: Int]

    /// An empty table for `layout`'s gateways, tracking at most `configuration`'s limits.
    init(layout: SiteLayout, configuration: SiteFusionConfiguration, cycleNanoseconds: Int64) {
        evidence = EvidenceTable(
            gatewayCount: layout.gateways.count,
            staleCycles: max(1, configuration.staleness.nanoseconds / cycleNanoseconds))
        introducedByGateway = Array(repeating: 0, count: layout.gateways.count)
        maxTracked = configuration.maxTracked
        maxBeaconsPerGateway = configuration.maxBeaconsPerGateway
        anchorIndexByID = layout.anchorIndexByID
    }

    /// Beacons tracked.
    var count: Int { states.count }

    /// Whether no beacon is tracked.
    var isEmpty: Bool { states.isEmpty }

    /// The row of `id`, if it is tracked.
    @inline(__always)
    func row(of id: BeaconID) -> Int? {
        index.slot(of: id) { ids[$0] }
    }

    /// Removes beacon `b`: the last beacon moves into row `b`. Returns the id removed.
    mutating func remove(_ b: Int) -> BeaconID {
        let id = ids[b]
        let owner = Int(states[b].introducedBy)
        if owner >= 0 { introducedByGateway[owner] -= 1 }
        ids.withUnsafeBufferPointer { ids in index.remove(id, slot: b) { ids[$0] } }
        let last = states.count - 1
        if b != last {
            index.move(ids[last], from: last, to: b)
            states.swapAt(b, last)
            ids.swapAt(b, last)
        }
        evidence.moveLast(to: b)
        states.removeLast()
        ids.removeLast()
        return id
    }

    /// Files every record of an admitted report (`staged`: the intake's records when they are
    /// not `.binary`), counting them in `statistics`, in three passes so that memory is read in
    /// parallel rather than one miss after another: the index buckets of the records' beacons are
    /// fetched; then each beacon's row is looked up into ``known`` (confirmed against ``ids``,
    /// which stays in cache) and the evidence slot and state its record writes are fetched; then
    /// each record is filed.
    mutating func file(
        _ records: ReportIntake.Records, staged: [GatewayRecord], _ filing: Filing,
        statistics: inout SiteFusionStatistics
    ) {
        guard !filing.stale else {
            let count = records.count(staged: staged)
            statistics.records += count
            statistics.staleRecords += count
            return
        }
        var known: [Int] = []
        swap(&known, &self.known) // kept for the next report: its storage is reused
        known.removeAll(keepingCapacity: true)
        do {
            // A copy of the index for the closures (reading `self` in them copies all of it for each
            // record); it goes before filing inserts into the index, which would then copy its table.
            let index = index
            switch records {
            case .staged: for record in staged { index.prefetchHome(of: record.beacon) }
            case .binary(let view): view.forEachBeacon { index.prefetchHome(of: $0) }
            }
            let lane = evidence.index(beacon: 0, gateway: filing.gateway, cycle: filing.cycle)
            let stride = evidence.rowWidth
            evidence.slots.withUnsafeBufferPointer { slots in
                states.withUnsafeBufferPointer { states in
                    ids.withUnsafeBufferPointer { ids in
                        switch records {
                        case .staged:
                            for record in staged {
                                known.append(Self.look(record.beacon, index, ids, slots, states, lane: lane, stride: stride))
                            }
                        case .binary(let view):
                            view.forEachBeacon {
                                known.append(Self.look($0, index, ids, slots, states, lane: lane, stride: stride))
                            }
                        }
                    }
                }
            }
        }
        var k = 0
        switch records {
        case .staged:
            for record in staged {
                take(record, known: known[k], filing, &statistics)
                k += 1
            }
        case .binary(let view):
            view.forEachRecord { record in
                take(record, known: known[k], filing, &statistics)
                k += 1
            }
        }
        swap(&known, &self.known)
    }

    /// Looks a record's beacon up: its row, or −1 when it is not tracked; starts fetching the
    /// memory its filing writes.
    @inline(__always)
    private static func look(
        _ id: BeaconID, _ index: BeaconIndex, _ ids: UnsafeBufferPointer<BeaconID>, _ slots: UnsafeBufferPointer<EvidenceSlot>,
        _ states: UnsafeBufferPointer<FusedBeaconState>, lane: Int, stride: Int
    ) -> Int {
        guard let b = index.slot(of: id, idAt: { ids[$0] }) else { return -1 }
        beacon_prefetch(slots.baseAddress! + (b * stride + lane))
        beacon_prefetch(states.baseAddress! + b)
        return b
    }

    /// Files one record; `known`: its beacon's row, or −1 when it was not tracked.
    @inline(__always)
    private mutating func take(
        _ record: GatewayRecord, known: Int, _ filing: Filing, _ statistics: inout SiteFusionStatistics
    ) {
        statistics.records += 1
        if filing.late { statistics.lateRecords += 1 }
        let gateway = filing.gateway
        let lastSeen = Timestamp(nanosecondsSinceEpoch: record.lastSeen.nanosecondsSinceEpoch &+ filing.offset)
        let b: Int
        if known >= 0 {
            b = known
        } else if let existing = row(of: record.beacon) {
            b = existing // a beacon this report brought in already
        } else {
            guard states.count < maxTracked else {
                statistics.refusedBeacons += 1
                return
            }
            guard introducedByGateway[gateway] < maxBeaconsPerGateway else {
                statistics.refusedBeaconsOverGatewayCap += 1
                return
            }
            b = states.count
            ids.withUnsafeBufferPointer { ids in index.insert(record.beacon, slot: b) { ids[$0] } }
            ids.append(record.beacon)
            introducedByGateway[gateway] += 1
            states.append(
                FusedBeaconState(
                    id: record.beacon, time: lastSeen, introducedBy: gateway, anchor: anchorIndexByID[record.beacon] ?? -1))
            evidence.appendBeacon()
        }
        if record.seen, lastSeen > states[b].lastSeen { states[b].lastSeen = lastSeen }
        if let power = record.measuredPower { states[b].measuredPower = power }
        let cycle = filing.cycle
        let offsetDB = filing.rssiOffset
        evidence.file(
            EvidenceSlot(
                cycle: cycle, rssi: record.rssi.map { Float($0 + offsetDB) } ?? .nan,
                mean: record.meanRSSI.map { Float($0 + offsetDB) } ?? .nan,
                distance: record.distance.map(Float.init) ?? .nan, accuracy: record.accuracy.map(Float.init) ?? .nan,
                samples: UInt16(clamping: record.sampleCount), seen: record.seen),
            at: evidence.index(beacon: b, gateway: gateway, cycle: cycle))
    }
}
