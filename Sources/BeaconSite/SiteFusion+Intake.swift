import BeaconCore
import BeaconSiteReport

extension SiteFusion {
    /// Takes one encoded report (either format), whole, or refuses it whole.
    /// - Parameters:
    ///   - bytes: the report as received.
    ///   - receivedAt: when the hub received it (its own clock), to align the gateway's clock;
    ///     `nil` when gateway and hub share a clock (replay, simulation).
    ///   - origin: what the report's topic says (a live hub); `nil` when it has no topic.
    /// - Throws: `ReportRefusal` (already counted in ``statistics``) for a report that is not
    ///   complete and valid, not from a gateway of the site, or not credible; nothing of it is used.
    public func ingest(
        report bytes: UnsafeRawBufferPointer, receivedAt: Timestamp? = nil, origin: ReportOrigin? = nil
    ) throws(ReportRefusal) {
        do throws(ReportRefusal) {
            take(try intake.admit(report: bytes, receivedAt: receivedAt, origin: origin, layout: layout), receivedAt: receivedAt)
        } catch {
            throw refuse(error)
        }
    }

    /// Takes a report's records as values (a simulated site's gateways, tests), whole, or refuses
    /// it whole like an encoded one.
    public func ingest(
        _ records: some Sequence<GatewayRecord>, header: GatewayReportHeader, receivedAt: Timestamp? = nil,
        origin: ReportOrigin? = nil
    ) throws(ReportRefusal) {
        do throws(ReportRefusal) {
            take(
                try intake.admit(records, header: header, receivedAt: receivedAt, origin: origin, layout: layout),
                receivedAt: receivedAt)
        } catch {
            throw refuse(error)
        }
    }

    /// Counts a refusal found outside the fusion (a topic the hub's subscription could not place)
    /// with those it finds itself, and returns it.
    @discardableResult
    public func refuse(_ refusal: ReportRefusal) -> ReportRefusal {
        statistics.refusedReports[refusal.reason, default: 0] += 1
        return refusal
    }

    /// Takes a report ``intake`` admitted: its gateway is alive, its records are filed.
    private func take(_ admitted: ReportIntake.Admitted, receivedAt: Timestamp?) {
        statistics.reports += 1
        reportTime = admitted.time
        // Alive is what arrives: a live hub counts a report at its receipt (a report stamped a
        // while before it arrived still says the gateway is there); a replay, at its time.
        liveness.noteReport(
            gateway: admitted.gateway, at: receivedAt.map { max($0.nanosecondsSinceEpoch, reportTime) } ?? reportTime)
        if currentCycleStart == nil {
            currentCycleStart = Timestamp(
                nanosecondsSinceEpoch: (cycleIndex(endingAtOrAfter: reportTime) &- 1) &* cycleNanoseconds)
        }
        beacons.file(
            admitted.records, staged: intake.staged, filing(gateway: admitted.gateway, offset: admitted.offset),
            statistics: &statistics)
        let time = Timestamp(nanosecondsSinceEpoch: reportTime)
        if latestTime.map({ time > $0 }) ?? true { latestTime = time }
    }

    /// The number of the first cycle ending at or after `t` (ns): ⌈t / cycle⌉.
    @inline(__always)
    func cycleIndex(endingAtOrAfter t: Int64) -> Int64 {
        let (q, r) = t.quotientAndRemainder(dividingBy: cycleNanoseconds)
        return r > 0 ? q + 1 : q
    }

    /// The filing of a report from `gateway` at ``reportTime``.
    func filing(gateway: Int, offset: Int64) -> FusedBeaconTable.Filing {
        let cycle = cycleIndex(endingAtOrAfter: reportTime)
        let nextToClose = (currentCycleStart?.nanosecondsSinceEpoch ?? 0) / cycleNanoseconds + 1
        let behind = cycle < nextToClose
        let kept = cycle > nextToClose - EvidenceSlot.mask
        return FusedBeaconTable.Filing(
            gateway: gateway, offset: offset, cycle: cycle, stale: behind && !kept, late: behind && kept,
            rssiOffset: layout.gateways[gateway].rssiOffset)
    }
}
