import BeaconCore
import BeaconRanging

/// A site hub's fusion stage: gateways' per-cycle records in, one `RangedBeacon` per beacon and
/// cycle out — with the beacon's room, its position and how many gateways heard it — in the same
/// `RangingUpdate` a single gateway's ranging loop emits, so the same strategies and alert
/// engine run on it.
///
/// - **Time.** Each gateway's times are mapped onto the hub's clock by a per-gateway offset
///   (the minimum of recent receive-minus-send times) when reports carry a receive time (a live hub), and used as they are
///   otherwise (replay and simulation share one clock). A record belongs to the hub cycle whose
///   end is the first at or after its time. A cycle is fused once the hub's time has passed its
///   end by ``SiteFusionConfiguration/lateness``; a record that comes later still counts for
///   the following cycles, and one older than the hub keeps is dropped (both counted).
/// - **Evidence.** For each gateway, the newest record of the beacon no older than
///   ``SiteFusionConfiguration/staleness``.
/// - **Room.** The room whose best gateway hears the beacon loudest over the last two cycles
///   (mean RSSI), with hysteresis (``RoomHysteresis``). Room changes are reported as region exits
///   and entries, with the room's name as the region id, so region strategies and
///   `cancelOn: regionExit` work on rooms.
/// - **Position.** Weighted least squares in the RSSI domain over the gateways with a known
///   position that heard the beacon in the cycle (at least
///   ``PositioningConfiguration/minimumGateways``), else the centroid of the strongest;
///   smoothed by a constant-velocity Kalman filter.
///
/// Memory: 128 bytes per beacon and gateway of evidence plus about 200 per beacon. Nothing is
/// allocated per record or per cycle once the tables have grown. A hub belongs to one task.
public final class SiteFusion {
    /// The site's gateways and rooms.
    public let layout: SiteLayout
    /// The fusion's settings.
    public let configuration: SiteFusionConfiguration
    /// What has been fused so far.
    public private(set) var statistics = SiteFusionStatistics()
    /// The start of the next cycle to fuse (`nil` before the first record).
    public private(set) var currentCycleStart: Timestamp?
    /// The latest hub time a record or ``advance(to:onUpdate:)`` has reached.
    public private(set) var latestTime: Timestamp?

    private var update = RangingUpdate(cycleStart: .epoch, time: .epoch)
    private var indexByID: [BeaconID: Int] = [:]
    private var beacons: [FusedBeaconState] = []
    private var slots: [EvidenceSlot] = []
    private var clocks: [GatewayClock]
    private var positionScratch: [PositionEvidence] = []
    private var roomScores: [Float]
    private var evidenceScratch: [Int] = []
    private var unknownGateways: Set<String> = []
    private let gatewayCount: Int
    private let cycleNanoseconds: Int64
    private let latenessNanoseconds: Int64
    private let staleCycles: Int64
    private let retentionNanoseconds: Int64
    private let tagHeight: Double
    private let bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    private let cycleSeconds: Double
    private let roomNames: [String]

    /// Creates a hub's fusion for `layout`.
    public init(layout: SiteLayout, configuration: SiteFusionConfiguration = SiteFusionConfiguration())
        throws(SiteConfigurationError)
    {
        try configuration.validate()
        self.layout = layout
        self.configuration = configuration
        gatewayCount = layout.gateways.count
        clocks = Array(repeating: GatewayClock(), count: gatewayCount)
        roomScores = Array(repeating: -.infinity, count: max(1, layout.rooms.count))
        roomNames = layout.rooms
        cycleNanoseconds = configuration.cycleLength.nanoseconds
        latenessNanoseconds = configuration.lateness.nanoseconds
        staleCycles = max(1, configuration.staleness.nanoseconds / cycleNanoseconds)
        retentionNanoseconds = configuration.retention.nanoseconds
        let positioned = layout.gateways.compactMap(\.position)
        tagHeight =
            configuration.positioning.tagHeight
            ?? (positioned.isEmpty ? 0 : positioned.reduce(0) { $0 + $1.z } / Double(positioned.count))
        let margin = configuration.positioning.boundsMargin
        cycleSeconds = Double(cycleNanoseconds) / 1e9
        bounds = (
            (positioned.map(\.x).min() ?? 0) - margin, (positioned.map(\.y).min() ?? 0) - margin,
            (positioned.map(\.x).max() ?? 0) + margin, (positioned.map(\.y).max() ?? 0) + margin
        )
        positionScratch.reserveCapacity(gatewayCount)
        evidenceScratch.reserveCapacity(gatewayCount)
    }

    /// Beacons being fused.
    public var trackedCount: Int { beacons.count }

    /// The update of the latest cycle fused (empty before the first), with every beacon's room
    /// and position. Keeping the copy past the next cycle makes that cycle allocate a new buffer
    /// (the fusion reuses its own): read it on demand only.
    public var latestUpdate: RangingUpdate { update }

    /// Ids of gateways that sent reports but are not in the layout (for the log).
    public var unknownGatewayIDs: [String] { unknownGateways.sorted() }

    // MARK: Records in

    /// Takes one encoded report (either format). Returns false when its gateway is not part of the
    /// site (the report is dropped and counted).
    /// - Parameters:
    ///   - bytes: the report as received.
    ///   - receivedAt: when the hub received it (its own clock), to align the gateway's clock;
    ///     `nil` when gateway and hub share a clock (replay, simulation).
    /// - Throws: ``GatewayReportError`` for a report that is not complete and valid (nothing of it is used).
    @discardableResult
    public func ingest(report bytes: UnsafeRawBufferPointer, receivedAt: Timestamp? = nil) throws(GatewayReportError) -> Bool {
        var gateway = -1
        var offset: Int64 = 0
        try GatewayReportDecoder.decode(
            bytes,
            header: { header in (gateway, offset) = begin(header, receivedAt: receivedAt) },
            record: { record in if gateway >= 0 { take(record, gateway: gateway, offset: offset) } })
        if gateway >= 0 { finishReport() }
        return gateway >= 0
    }

    /// Takes a report's records as values (a simulated site's gateways, tests). Returns false when
    /// its gateway is not part of the site.
    @discardableResult
    public func ingest(
        _ records: some Sequence<GatewayRecord>, header: GatewayReportHeader, receivedAt: Timestamp? = nil
    ) -> Bool {
        let (gateway, offset) = begin(header, receivedAt: receivedAt)
        guard gateway >= 0 else { return false }
        for record in records { take(record, gateway: gateway, offset: offset) }
        finishReport()
        return true
    }

    private var reportTime: Int64 = 0

    private func begin(_ header: GatewayReportHeader, receivedAt: Timestamp?) -> (Int, Int64) {
        guard let gateway = layout.index(of: header.gateway) else {
            statistics.unknownGatewayReports += 1
            if unknownGateways.count < 64 { unknownGateways.insert(header.gateway) }
            return (-1, 0)
        }
        statistics.reports += 1
        let sent = header.time.nanosecondsSinceEpoch
        let offset = receivedAt.map { clocks[gateway].observe(sent: sent, received: $0.nanosecondsSinceEpoch) } ?? 0
        reportTime = sent &+ offset
        if currentCycleStart == nil {
            currentCycleStart = Timestamp(
                nanosecondsSinceEpoch: (cycleIndex(endingAtOrAfter: reportTime) - 1) &* cycleNanoseconds)
        }
        return (gateway, offset)
    }

    private func finishReport() {
        let time = Timestamp(nanosecondsSinceEpoch: reportTime)
        if latestTime.map({ time > $0 }) ?? true { latestTime = time }
    }

    /// The number of the first cycle ending at or after `t` (ns): ⌈t / cycle⌉.
    @inline(__always)
    private func cycleIndex(endingAtOrAfter t: Int64) -> Int64 {
        let (q, r) = t.quotientAndRemainder(dividingBy: cycleNanoseconds)
        return r > 0 ? q + 1 : q
    }

    private func take(_ record: GatewayRecord, gateway: Int, offset: Int64) {
        statistics.records += 1
        let cycle = cycleIndex(endingAtOrAfter: reportTime)
        let nextToClose = (currentCycleStart?.nanosecondsSinceEpoch ?? 0) / cycleNanoseconds + 1
        if cycle < nextToClose {
            guard cycle > nextToClose - EvidenceSlot.mask else {
                statistics.staleRecords += 1
                return
            }
            statistics.lateRecords += 1
        }
        let lastSeen = Timestamp(nanosecondsSinceEpoch: record.lastSeen.nanosecondsSinceEpoch &+ offset)
        let b: Int
        if let existing = indexByID[record.beacon] {
            b = existing
        } else {
            guard beacons.count < configuration.maxTracked else {
                statistics.refusedBeacons += 1
                return
            }
            b = beacons.count
            indexByID[record.beacon] = b
            beacons.append(FusedBeaconState(id: record.beacon, time: lastSeen))
            slots.append(contentsOf: repeatElement(EvidenceSlot(), count: gatewayCount * EvidenceSlot.perGateway))
        }
        if record.seen, lastSeen > beacons[b].lastSeen { beacons[b].lastSeen = lastSeen }
        if let power = record.measuredPower { beacons[b].measuredPower = power }
        let s = (b * gatewayCount + gateway) * EvidenceSlot.perGateway + Int(cycle & EvidenceSlot.mask)
        guard slots[s].cycle <= cycle else { return } // a newer record holds the slot
        let offsetDB = layout.gateways[gateway].rssiOffset
        slots[s] = EvidenceSlot(
            cycle: cycle, rssi: record.rssi.map { Float($0 + offsetDB) } ?? .nan,
            mean: record.meanRSSI.map { Float($0 + offsetDB) } ?? .nan,
            distance: record.distance.map(Float.init) ?? .nan, accuracy: record.accuracy.map(Float.init) ?? .nan,
            samples: UInt16(clamping: record.sampleCount), seen: record.seen)
    }

    // MARK: Cycles out

    /// Fuses every cycle that ended at least ``SiteFusionConfiguration/lateness`` before `now`,
    /// calling `onUpdate` with each, in order. The update is lent for the call.
    public func advance(to now: Timestamp, onUpdate: (RangingUpdate) throws -> Void) rethrows {
        if latestTime.map({ now > $0 }) ?? true { latestTime = now }
        guard var start = currentCycleStart?.nanosecondsSinceEpoch else { return }
        let limit = now.nanosecondsSinceEpoch &- latenessNanoseconds
        while start &+ cycleNanoseconds <= limit {
            if beacons.isEmpty {
                start = (limit / cycleNanoseconds) &* cycleNanoseconds // nothing tracked: skip the idle stretch
                break
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
        guard let b = indexByID[beacon], let start = currentCycleStart else { return }
        let cycle = start.nanosecondsSinceEpoch / cycleNanoseconds
        for g in 0..<gatewayCount {
            if let s = newestSlot(beacon: b, gateway: g, cycle: cycle) {
                let slot = slots[s]
                let rssi = slot.cycle == cycle && slot.samples > 0 && !slot.mean.isNaN ? slot.mean : slot.rssi
                body(g, rssi.isNaN ? nil : Double(rssi))
            }
        }
    }

    /// The newest slot of (`b`, `g`) for `cycle` or up to ``staleCycles`` before it.
    @inline(__always)
    private func newestSlot(beacon b: Int, gateway g: Int, cycle: Int64) -> Int? {
        let base = (b * gatewayCount + g) * EvidenceSlot.perGateway
        var best: Int?
        var bestCycle = cycle - staleCycles
        for i in 0..<EvidenceSlot.perGateway {
            let c = slots[base + i].cycle
            if c > bestCycle && c <= cycle {
                best = base + i
                bestCycle = c
            }
        }
        return best
    }

    private func fuseCycle(endIndex cycle: Int64) {
        statistics.cycles += 1
        let end = cycle &* cycleNanoseconds
        let endTime = Timestamp(nanosecondsSinceEpoch: end)
        update.cycleStart = Timestamp(nanosecondsSinceEpoch: end &- cycleNanoseconds)
        update.time = endTime
        update.beacons.removeAll(keepingCapacity: true)
        update.regionEvents.removeAll(keepingCapacity: true)
        update.evicted.removeAll(keepingCapacity: true)
        var b = 0
        while b < beacons.count {
            if let ranged = fuse(beacon: b, cycle: cycle, at: endTime) {
                update.beacons.append(ranged)
            } else if end &- beacons[b].lastSeen.nanosecondsSinceEpoch >= retentionNanoseconds {
                evict(b)
                continue // the last beacon moved into `b`
            }
            b += 1
        }
    }

    /// Fuses one beacon; `nil` when no gateway has fresh evidence of it (its room is left).
    private func fuse(beacon b: Int, cycle: Int64, at time: Timestamp) -> RangedBeacon? {
        evidenceScratch.removeAll(keepingCapacity: true)
        var seen = false
        var samples = 0
        for g in 0..<gatewayCount {
            guard let s = newestSlot(beacon: b, gateway: g, cycle: cycle) else { continue }
            evidenceScratch.append(s)
            if slots[s].cycle == cycle && slots[s].seen {
                seen = true
                samples += Int(slots[s].samples)
            }
        }
        guard !evidenceScratch.isEmpty else {
            leaveRoom(b, at: time)
            return nil
        }
        // Loudest and nearest gateways; room scores from the raw means of the last two cycles.
        var bestRSSI: Float = -.infinity
        var nearest: Float = .infinity
        var nearestAccuracy: Float = .nan
        for i in roomScores.indices { roomScores[i] = -.infinity }
        for s in evidenceScratch {
            let slot = slots[s]
            let g = (s / EvidenceSlot.perGateway) % gatewayCount
            if !slot.rssi.isNaN { bestRSSI = max(bestRSSI, slot.rssi) }
            if !slot.distance.isNaN && slot.distance < nearest {
                nearest = slot.distance
                nearestAccuracy = slot.accuracy
            }
            let room = layout.roomOfGateway[g]
            if room >= 0, let score = recentMean(beacon: b, gateway: g, cycle: cycle) {
                roomScores[room] = max(roomScores[room], score)
            }
        }
        decideRoom(b, at: time)
        let position = locate(b, cycle: cycle)
        let distance = nearest.isFinite ? Double(nearest) : nil
        let proximity = configuration.proximity.proximity(distance: distance, current: beacons[b].proximity)
        beacons[b].proximity = proximity
        let state = beacons[b]
        return RangedBeacon(
            id: state.id, lastAddress: BluetoothAddress(rawValue: 0), addressCount: 0, seenThisCycle: seen,
            sampleCount: samples, lastRSSI: nil, meanRSSI: nil,
            filteredRSSI: bestRSSI.isFinite ? Double(bestRSSI) : nil, measuredPower: state.measuredPower,
            distance: distance, accuracy: nearestAccuracy.isNaN || distance == nil ? nil : Double(nearestAccuracy),
            proximity: proximity, firstSeen: state.firstSeen, lastSeen: state.lastSeen,
            room: state.room >= 0 ? roomNames[Int(state.room)] : nil, position: position,
            gatewayCount: evidenceScratch.count)
    }

    private func decideRoom(_ b: Int, at time: Timestamp) {
        var best: Int32 = -1
        var bestScore: Float = -.infinity
        for (i, score) in roomScores.enumerated() where score > bestScore {
            best = Int32(i)
            bestScore = score
        }
        guard best >= 0 else {
            beacons[b].candidate = -1 // no gateway with a room heard it lately: the room stays as it is
            return
        }
        let current = beacons[b].room
        if current < 0 {
            enterRoom(b, best, at: time)
            return
        }
        guard best != current else {
            beacons[b].candidate = -1
            return
        }
        let currentScore = roomScores[Int(current)].isFinite ? roomScores[Int(current)] : Self.silentRoomScore
        // A lead of the margin, and a real lead (a tie never moves a beacon, even without margin).
        guard Double(bestScore - currentScore) >= configuration.room.margin, bestScore > currentScore else {
            beacons[b].candidate = -1
            return
        }
        if beacons[b].candidate != best {
            beacons[b].candidate = best
            beacons[b].candidateSince = time.nanosecondsSinceEpoch
        }
        if time.nanosecondsSinceEpoch &- beacons[b].candidateSince >= configuration.room.minimumDwell.nanoseconds {
            leaveRoom(b, at: time)
            enterRoom(b, best, at: time)
            statistics.roomChanges += 1
        }
    }

    /// The score of the current room when none of its gateways heard the beacon lately, dBm.
    static let silentRoomScore: Float = -105

    /// The mean RSSI of a gateway's sightings of beacon `b` in cycles `cycle − 1` and `cycle`,
    /// weighted by their counts; `nil` when it heard nothing in them.
    @inline(__always)
    private func recentMean(beacon b: Int, gateway g: Int, cycle: Int64) -> Float? {
        let base = (b * gatewayCount + g) * EvidenceSlot.perGateway
        var sum: Float = 0
        var count: Float = 0
        for i in 0..<EvidenceSlot.perGateway {
            let slot = slots[base + i]
            guard slot.cycle == cycle || slot.cycle == cycle - 1, slot.samples > 0, !slot.mean.isNaN else { continue }
            sum += Float(slot.samples) * slot.mean
            count += Float(slot.samples)
        }
        return count > 0 ? sum / count : nil
    }

    private func enterRoom(_ b: Int, _ room: Int32, at time: Timestamp) {
        beacons[b].room = room
        beacons[b].candidate = -1
        update.regionEvents.append(
            RegionEvent(kind: .enter, regionID: roomNames[Int(room)], beacon: beacons[b].id, time: time))
    }

    private func leaveRoom(_ b: Int, at time: Timestamp) {
        beacons[b].tracker.reset()
        let room = beacons[b].room
        guard room >= 0 else { return }
        beacons[b].room = -1
        beacons[b].candidate = -1
        update.regionEvents.append(
            RegionEvent(kind: .exit, regionID: roomNames[Int(room)], beacon: beacons[b].id, time: time))
    }

    private func locate(_ b: Int, cycle: Int64) -> BeaconPosition? {
        positionScratch.removeAll(keepingCapacity: true)
        let positioning = configuration.positioning
        let power = Double(beacons[b].measuredPower ?? -59)
        let tenN = 10 * positioning.pathLossExponent
        let modelVariance = positioning.modelSigma * positioning.modelSigma
        for g in 0..<gatewayCount {
            // This cycle's sightings only: a record within its grace repeats a stale RSSI.
            let s = (b * gatewayCount + g) * EvidenceSlot.perGateway + Int(cycle & EvidenceSlot.mask)
            let slot = slots[s]
            guard slot.cycle == cycle, slot.samples > 0, !slot.mean.isNaN, let point = layout.gateways[g].position else {
                continue
            }
            let loss = power - Double(slot.mean)
            // The gateway's own uncertainty, back in dB: σ = 10·n·log10(1 + accuracy/distance).
            let stated = slot.distance.isNaN ? 0 : Double(slot.distance)
            let innovation = slot.accuracy.isNaN || stated <= 0 ? 0 : tenN * logarithm10(1 + Double(slot.accuracy) / stated)
            positionScratch.append(
                PositionEvidence(
                    x: point.x, y: point.y, z: point.z, loss: loss,
                    weight: 1 / (modelVariance + innovation * innovation / Double(slot.samples)),
                    // From this cycle's mean, as the fit uses: the filtered distance lags a walking tag.
                    distance: max(0.1, exponent10(loss / tenN)), rssi: Double(slot.mean)))
        }
        var fix: BeaconPosition?
        if !positionScratch.isEmpty {
            // Strongest first (insertion sort: a handful of entries).
            for i in 1..<positionScratch.count {
                var j = i
                while j > 0 && positionScratch[j].rssi > positionScratch[j - 1].rssi {
                    positionScratch.swapAt(j, j - 1)
                    j -= 1
                }
            }
            fix = positionScratch.withUnsafeBufferPointer { evidence in
                if evidence.count >= positioning.minimumGateways,
                    let solved = Multilateration.solve(
                        evidence, height: tagHeight, exponent: positioning.pathLossExponent,
                        offsetPrior: positioning.offsetPrior, bounds: bounds,
                        start: beacons[b].tracker.predicted(dt: cycleSeconds))
                {
                    statistics.multilaterations += 1
                    return solved
                }
                statistics.centroids += 1
                return Multilateration.centroid(evidence, height: tagHeight, strongest: 4)
            }
        }
        guard let q = positioning.tracking else { return fix }
        return beacons[b].tracker.step(fix: fix, dt: cycleSeconds, processNoise: q, height: tagHeight)
    }

    private func evict(_ b: Int) {
        let id = beacons[b].id
        leaveRoom(b, at: update.time)
        update.evicted.append(id)
        indexByID[id] = nil
        let last = beacons.count - 1
        let width = gatewayCount * EvidenceSlot.perGateway
        if b != last {
            beacons.swapAt(b, last)
            indexByID[beacons[b].id] = b
            for i in 0..<width { slots[b * width + i] = slots[last * width + i] }
        }
        beacons.removeLast()
        slots.removeLast(width)
    }
}
