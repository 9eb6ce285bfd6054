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
        staged.removeAll(keepingCapacity: true)
        var seal: SignedReport.Parts?
        var body = bytes
        if SignedReport.isSealed(bytes) {
            guard let parts = SignedReport.open(bytes) else {
                throw refuse(ReportRefusal(.malformed, "a signed report that is too short or of another version"))
            }
            seal = parts
            body = parts.report
        }
        let cap = configuration.maxRecordsPerReport
        if GatewayReportDecoder.isBinary(body) {
            // Binary: checked whole in place, its records filed straight from the bytes.
            let view: GatewayReportView
            do throws(GatewayReportError) {
                view = try GatewayReportDecoder.binary(body)
            } catch {
                throw refuse(ReportRefusal(.malformed, error.description))
            }
            try refuseOverCap(view.header, cap: cap)
            try admit(view.header, .binary(view), receivedAt: receivedAt, origin: origin, seal: seal)
            return
        }
        var parsed: GatewayReportHeader?
        var tooMany = false
        do throws(GatewayReportError) {
            try GatewayReportDecoder.decode(
                body,
                header: { header in
                    parsed = header
                    tooMany = header.recordCount > cap
                },
                record: { record in if !tooMany { staged.append(record) } })
        } catch {
            throw refuse(ReportRefusal(.malformed, error.description))
        }
        // The decoder calls `header` before it returns without an error.
        guard let header = parsed else { throw refuse(ReportRefusal(.malformed, "no header")) }
        try refuseOverCap(header, cap: cap)
        try admit(header, .staged, receivedAt: receivedAt, origin: origin, seal: seal)
    }

    private func refuseOverCap(_ header: GatewayReportHeader, cap: Int) throws(ReportRefusal) {
        guard header.recordCount > cap else { return }
        throw refuse(
            ReportRefusal(
                .tooManyRecords, gateway: header.gateway,
                "\(header.recordCount) records, more than hub.maxRecordsPerReport (\(cap))"))
    }

    /// Takes a report's records as values (a simulated site's gateways, tests), whole, or refuses
    /// it whole like an encoded one.
    public func ingest(
        _ records: some Sequence<GatewayRecord>, header: GatewayReportHeader, receivedAt: Timestamp? = nil,
        origin: ReportOrigin? = nil
    ) throws(ReportRefusal) {
        staged.removeAll(keepingCapacity: true)
        staged.append(contentsOf: records)
        guard staged.count <= configuration.maxRecordsPerReport else {
            throw refuse(
                ReportRefusal(
                    .tooManyRecords, gateway: header.gateway,
                    "\(staged.count) records, more than hub.maxRecordsPerReport (\(configuration.maxRecordsPerReport))"))
        }
        try admit(header, .staged, receivedAt: receivedAt, origin: origin)
    }

    /// Counts a refusal found outside the fusion (a topic the hub's subscription could not place)
    /// with those it finds itself, and returns it.
    @discardableResult
    public func refuse(_ refusal: ReportRefusal) -> ReportRefusal {
        statistics.refusedReports[refusal.reason, default: 0] += 1
        return refusal
    }

    /// Where the records of the report being admitted are: in ``staged``, or in place.
    enum Records {
        case staged
        case binary(GatewayReportView)
    }

    /// Checks the report against the site, its topic, physical ranges and its gateway's clock;
    /// then takes every record.
    private func admit(
        _ header: GatewayReportHeader, _ records: Records, receivedAt: Timestamp?, origin: ReportOrigin?,
        seal: SignedReport.Parts? = nil
    ) throws(ReportRefusal) {
        let gateway: Int
        do throws(ReportRefusal) { gateway = try admission.gateway(of: header, in: layout) } catch { throw refuse(error) }
        if let origin {
            guard origin.gateway == header.gateway else {
                throw refuse(
                    ReportRefusal(
                        .wrongTopic, gateway: header.gateway, "published under gateway '\(origin.gateway)''s topic"))
            }
            let elsewhere: (BeaconID) -> Bool = { SiteTopics.bucket(of: $0, count: origin.bucketCount) != origin.bucket }
            let stray: BeaconID? =
                switch records {
                case .staged: staged.first { elsewhere($0.beacon) }?.beacon
                case .binary(let view): view.firstBeacon(where: elsewhere)
                }
            if let beacon = stray {
                throw refuse(
                    ReportRefusal(
                        .wrongBucket, gateway: header.gateway,
                        "\(beacon) belongs to bucket \(SiteTopics.bucket(of: beacon, count: origin.bucketCount)), not \(origin.bucket)"
                    ))
            }
        }
        if let key = layout.gateways[gateway].key {
            do throws(ReportRefusal) {
                try admission.authenticate(seal, key: key, gateway: gateway, id: header.gateway, receivedAt: receivedAt)
            } catch {
                throw refuse(error)
            }
        }
        let problem: String? =
            switch records {
            case .staged: staged.lazy.compactMap { $0.rangeProblem(reportTime: header.time) }.first
            case .binary(let view): view.firstRangeProblem()
            }
        if let problem { throw refuse(ReportRefusal(.outOfRange, gateway: header.gateway, problem)) }
        let offset: Int64
        do throws(ReportRefusal) {
            offset = try admission.clockOffset(header, gateway: gateway, receivedAt: receivedAt)
        } catch {
            throw refuse(error)
        }
        statistics.reports += 1
        reportTime = header.time.nanosecondsSinceEpoch &+ offset
        // Alive is what arrives: a live hub counts a report at its receipt (a report stamped a
        // while before it arrived still says the gateway is there); a replay, at its time.
        liveness.noteReport(gateway: gateway, at: receivedAt.map { max($0.nanosecondsSinceEpoch, reportTime) } ?? reportTime)
        if currentCycleStart == nil {
            currentCycleStart = Timestamp(
                nanosecondsSinceEpoch: (cycleIndex(endingAtOrAfter: reportTime) &- 1) &* cycleNanoseconds)
        }
        fileRecords(records, filing(gateway: gateway, offset: offset))
        let time = Timestamp(nanosecondsSinceEpoch: reportTime)
        if latestTime.map({ time > $0 }) ?? true { latestTime = time }
    }
}
