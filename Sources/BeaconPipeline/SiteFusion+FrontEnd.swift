import BeaconCore
import BeaconRanging
import BeaconSite
import BeaconSiteReport

/// A site hub's front end: gateways' reports in, fused beacons (rooms, positions) out, a cycle at
/// a time once its lateness has passed.
extension SiteFusion: PipelineFrontEnd {
    package var cycleLength: Duration { configuration.cycleLength }
    package var lateness: Duration { configuration.lateness }

    /// The fusion's cycle start; before its first report, the start of the cycle its clock (an
    /// `advance(to:onUpdate:)`) has reached, so that a hub's clock runs from its first tick.
    package var cycleClock: Timestamp? {
        if let currentCycleStart { return currentCycleStart }
        guard let latestTime else { return nil }
        let length = configuration.cycleLength.nanoseconds
        let (q, r) = latestTime.nanosecondsSinceEpoch.quotientAndRemainder(dividingBy: length)
        return Timestamp(nanosecondsSinceEpoch: (r < 0 ? q - 1 : q) * length)
    }

    package var regionIDs: [String] { layout.rooms }

    package func unknownRegionMessage(_ region: String) -> String {
        listingRegions(after: "no room or region '\(region)'", suffix: " (rooms count as regions)")
    }

    package func contribute(to statistics: inout PipelineStatistics) {
        statistics.site = self.statistics
        statistics.site?.gateways = gatewayStatuses
        if isCalibrating { statistics.site?.calibration = calibrationStatus }
    }

    package func contribute(to inspection: inout PipelineInspection) {
        inspection.site = layout
        inspection.gatewayStatuses = gatewayStatuses
        inspection.beacons = latestUpdate.beacons
        inspection.gatewayRSSI = inspection.beacons.map { beacon in
            var evidence: [PipelineInspection.GatewayRSSI] = []
            forEachEvidence(of: beacon.id) { index, rssi in
                evidence.append(.init(gateway: layout.gateways[index].id, rssi: rssi))
            }
            return evidence
        }
    }

    /// Takes gateways' reports, handing each one refused to `refused`, then fuses every cycle
    /// they complete, calling `onUpdate` with each; returns the fusion's latest time.
    func ingest(
        reports: [GatewayReportMessage], refused: (ReportRefusal) -> Void,
        onUpdate: (RangingUpdate) throws -> Void
    ) rethrows -> Timestamp? {
        for message in reports {
            let failure: ReportRefusal?
            switch message {
            case .encoded(let bytes, let receivedAt, let origin):
                failure = bytes.withUnsafeBytes { buffer in
                    do throws(ReportRefusal) {
                        try ingest(report: buffer, receivedAt: receivedAt, origin: origin)
                        return nil
                    } catch {
                        return error
                    }
                }
            case .decoded(let header, let records):
                do throws(ReportRefusal) {
                    try ingest(records, header: header)
                    failure = nil
                } catch {
                    failure = error
                }
            case .refused(let refusal):
                failure = refuse(refusal)
            }
            if let failure { refused(failure) }
        }
        guard let reached = latestTime else { return nil }
        try advance(to: reached, onUpdate: onUpdate)
        return reached
    }
}
