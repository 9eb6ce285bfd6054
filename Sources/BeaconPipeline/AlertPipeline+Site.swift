import BeaconAlertEngine
import BeaconCore
import BeaconSite
import BeaconSiteReport

extension AlertPipeline {
    /// Takes gateways' reports (a site hub's pipeline) and runs every cycle they complete —
    /// the fused beacons — through strategies and engine, as one input.
    ///
    /// The reports' times are the clock, as packets are for one gateway: the fusion closes each
    /// cycle once its lateness has passed. A report the fusion refuses (malformed, from an
    /// unknown gateway, off its topic, out of range, against its gateway's clock …) is counted by
    /// reason in the site's statistics (`SiteFusionStatistics.refusedReports`) and handed to
    /// `refused`; nothing of it is used.
    /// - Precondition: the pipeline was built with a `site`.
    public func ingest(
        reports: [GatewayReportMessage], refused: (ReportRefusal) -> Void = { _ in },
        emit: (RoutedEvent) throws -> Void
    ) throws {
        guard let site else { preconditionFailure("gateway reports reach only a pipeline built with a site") }
        for message in reports {
            let failure: ReportRefusal?
            switch message {
            case .encoded(let bytes, let receivedAt, let origin):
                failure = bytes.withUnsafeBytes { buffer in
                    do throws(ReportRefusal) {
                        try site.ingest(report: buffer, receivedAt: receivedAt, origin: origin)
                        return nil
                    } catch {
                        return error
                    }
                }
            case .decoded(let header, let records):
                do throws(ReportRefusal) {
                    try site.ingest(records, header: header)
                    failure = nil
                } catch {
                    failure = error
                }
            case .refused(let refusal):
                failure = site.refuse(refusal)
            }
            if let failure { refused(failure) }
        }
        if let reached = site.latestTime {
            if latestTime.map({ reached > $0 }) ?? true { latestTime = reached }
            try site.advance(to: reached) { try decide($0) }
        }
        try runIdleCycles()
        try finishInput(emit)
    }

    /// How long after a cycle's end a site hub fuses it (zero for one gateway's pipeline): what a
    /// source's end adds so that the last cycle is closed.
    public var siteLateness: Duration { site?.configuration.lateness ?? .zero }

    /// Calls `body` with each gateway's RSSI of `beacon` in the last fused cycle (a site hub; for
    /// presence output). Gateways are named by id.
    public func forEachGatewayEvidence(of beacon: BeaconID, _ body: (_ gateway: String, _ rssi: Double?) -> Void) {
        guard let site else { return }
        site.forEachEvidence(of: beacon) { index, rssi in body(site.layout.gateways[index].id, rssi) }
    }
}
