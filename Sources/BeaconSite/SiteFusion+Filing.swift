import BeaconCore
import BeaconRanging
import BeaconSiteReport
import CBeaconPrefetch

extension SiteFusion {
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

    /// The number of the first cycle ending at or after `t` (ns): ⌈t / cycle⌉.
    @inline(__always)
    func cycleIndex(endingAtOrAfter t: Int64) -> Int64 {
        let (q, r) = t.quotientAndRemainder(dividingBy: cycleNanoseconds)
        return r > 0 ? q + 1 : q
    }

    /// The filing of a report from `gateway` at ``reportTime``.
    func filing(gateway: Int, offset: Int64) -> Filing {
        let cycle = cycleIndex(endingAtOrAfter: reportTime)
        let nextToClose = (currentCycleStart?.nanosecondsSinceEpoch ?? 0) / cycleNanoseconds + 1
        let behind = cycle < nextToClose
        let kept = cycle > nextToClose - EvidenceSlot.mask
        return Filing(
            gateway: gateway, offset: offset, cycle: cycle, stale: behind && !kept, late: behind && kept,
            rssiOffset: layout.gateways[gateway].rssiOffset)
    }

    /// Files every record of the admitted report, in three passes over it so that memory is
    /// read in parallel rather than one miss after another: the index buckets of the records'
    /// beacons are fetched; then each beacon's index is looked up into ``known`` (confirmed
    /// against ``ids``, which stays in cache) and the evidence slot and state its record writes
    /// are fetched; then each record is filed.
    func fileRecords(_ records: ReportIntake.Records, _ filing: Filing) {
        let count = intake.count(of: records)
        guard !filing.stale else {
            statistics.records += count
            statistics.staleRecords += count
            return
        }
        switch records {
        case .staged: for record in intake.staged { indexByID.prefetchHome(of: record.beacon) }
        case .binary(let view): view.forEachBeacon { indexByID.prefetchHome(of: $0) }
        }
        known.removeAll(keepingCapacity: true)
        let lane = evidence.index(beacon: 0, gateway: filing.gateway, cycle: filing.cycle)
        let stride = evidence.rowWidth
        evidence.slots.withUnsafeBufferPointer { slots in
            beacons.withUnsafeBufferPointer { beacons in
                ids.withUnsafeBufferPointer { ids in
                    switch records {
                    case .staged:
                        for record in intake.staged { look(record.beacon, ids, slots, beacons, lane: lane, stride: stride) }
                    case .binary(let view): view.forEachBeacon { look($0, ids, slots, beacons, lane: lane, stride: stride) }
                    }
                }
            }
        }
        var k = 0
        switch records {
        case .staged:
            for record in intake.staged {
                take(record, known: known[k], filing)
                k += 1
            }
        case .binary(let view):
            view.forEachRecord { record in
                take(record, known: known[k], filing)
                k += 1
            }
        }
    }

    /// Looks a record's beacon up into ``known``; starts fetching the memory its filing writes.
    @inline(__always)
    private func look(
        _ id: BeaconID, _ ids: UnsafeBufferPointer<BeaconID>, _ slots: UnsafeBufferPointer<EvidenceSlot>,
        _ beacons: UnsafeBufferPointer<FusedBeaconState>, lane: Int, stride: Int
    ) {
        let b = indexByID.slot(of: id) { ids[$0] } ?? -1
        known.append(b)
        guard b >= 0 else { return }
        beacon_prefetch(slots.baseAddress! + (b * stride + lane))
        beacon_prefetch(beacons.baseAddress! + b)
    }

    /// Files one record; `known`: its beacon's index, or −1 when it was not tracked.
    @inline(__always)
    private func take(_ record: GatewayRecord, known: Int, _ filing: Filing) {
        statistics.records += 1
        if filing.late { statistics.lateRecords += 1 }
        let gateway = filing.gateway
        let lastSeen = Timestamp(nanosecondsSinceEpoch: record.lastSeen.nanosecondsSinceEpoch &+ filing.offset)
        let b: Int
        if known >= 0 {
            b = known
        } else if let existing = indexByID.slot(of: record.beacon, idAt: { ids[$0] }) {
            b = existing // a beacon this report brought in already
        } else {
            guard beacons.count < configuration.maxTracked else {
                statistics.refusedBeacons += 1
                return
            }
            guard beaconsIntroduced[gateway] < configuration.maxBeaconsPerGateway else {
                statistics.refusedBeaconsOverGatewayCap += 1
                return
            }
            b = beacons.count
            indexByID.insert(record.beacon, slot: b) { ids[$0] }
            ids.append(record.beacon)
            beaconsIntroduced[gateway] += 1
            beacons.append(
                FusedBeaconState(
                    id: record.beacon, time: lastSeen, introducedBy: gateway,
                    anchor: layout.anchorIndexByID[record.beacon] ?? -1))
            evidence.appendBeacon()
        }
        if record.seen, lastSeen > beacons[b].lastSeen { beacons[b].lastSeen = lastSeen }
        if let power = record.measuredPower { beacons[b].measuredPower = power }
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
