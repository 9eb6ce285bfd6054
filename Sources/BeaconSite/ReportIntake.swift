import BeaconCore
import BeaconSiteReport

/// The hub's intake stage: one report in, either admitted whole — its gateway, the offset of that
/// gateway's clock, the report's time on the hub's clock and where its records are — or refused
/// whole with a ``ReportRefusal``.
///
/// It decodes the report (either format; a binary one is checked in place, never copied), refuses
/// one of more than ``maxRecordsPerReport`` records (whole: it never cuts one short), and asks ``admission`` in order: the gateway, the
/// topic and bucket it was published under, the seal, the values, the clock. It reads no beacon,
/// evidence or cycle; ``SiteFusion`` counts what it refuses and files what it admits
/// (`ReportIntakeTests`).
struct ReportIntake {
    /// The door: which gateway, its seals, its clock.
    var admission: ReportAdmission
    /// A report holding more records is refused (``SiteFusionConfiguration/maxRecordsPerReport``).
    let maxRecordsPerReport: Int
    /// The records of the report being taken when they are values (a JSON report, or records
    /// handed over as values), until the next report.
    private(set) var staged: [GatewayRecord] = []

    /// Where the records of an admitted report are.
    enum Records {
        /// In ``staged``.
        case staged
        /// In place, in the binary report's bytes.
        case binary(GatewayReportView)

        /// How many records they are; `staged`: the intake's ``ReportIntake/staged``.
        func count(staged: [GatewayRecord]) -> Int {
            switch self {
            case .staged: staged.count
            case .binary(let view): view.header.recordCount
            }
        }
    }

    /// A report taken whole.
    struct Admitted {
        /// Its gateway's index in the layout.
        let gateway: Int
        /// That gateway's clock offset, ns: a time it reports plus this is the hub's.
        let offset: Int64
        /// The report's time on the hub's clock, ns.
        let time: Int64
        let records: Records
    }

    /// How many records an admitted report's `records` hold.
    func count(of records: Records) -> Int { records.count(staged: staged) }

    /// The intake of `configuration`'s hub for a site of `gatewayCount` gateways.
    init(gatewayCount: Int, configuration: SiteFusionConfiguration) {
        admission = ReportAdmission(
            gatewayCount: gatewayCount, clockTolerance: configuration.clockTolerance,
            signatureWindow: configuration.signatureWindow)
        maxRecordsPerReport = configuration.maxRecordsPerReport
    }

    /// Takes one encoded report (either format, sealed or not) from a gateway of `layout`.
    /// - Parameters:
    ///   - receivedAt: when the hub received it (its own clock), to align the gateway's clock;
    ///     `nil` when gateway and hub share a clock (replay, simulation).
    ///   - origin: what the report's topic says (a live hub); `nil` when it has no topic.
    mutating func admit(
        report bytes: UnsafeRawBufferPointer, receivedAt: Timestamp?, origin: ReportOrigin?, layout: SiteLayout
    ) throws(ReportRefusal) -> Admitted {
        staged.removeAll(keepingCapacity: true)
        var seal: SignedReport.Parts?
        var body = bytes
        if SignedReport.isSealed(bytes) {
            guard let parts = SignedReport.open(bytes) else {
                throw ReportRefusal(.malformed, "a signed report that is too short or of another version")
            }
            seal = parts
            body = parts.report
        }
        let cap = maxRecordsPerReport
        if GatewayReportDecoder.isBinary(body) {
            // Binary: checked whole in place, its records filed straight from the bytes.
            let view: GatewayReportView
            do throws(GatewayReportError) {
                view = try GatewayReportDecoder.binary(body)
            } catch {
                throw ReportRefusal(.malformed, error.description)
            }
            try refuseOverCap(view.header.recordCount, gateway: view.header.gateway)
            return try check(view.header, .binary(view), receivedAt: receivedAt, origin: origin, seal: seal, layout: layout)
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
            throw ReportRefusal(.malformed, error.description)
        }
        // The decoder calls `header` before it returns without an error.
        guard let header = parsed else { throw ReportRefusal(.malformed, "no header") }
        try refuseOverCap(header.recordCount, gateway: header.gateway)
        return try check(header, .staged, receivedAt: receivedAt, origin: origin, seal: seal, layout: layout)
    }

    /// Takes a report's records as values (a simulated site's gateways, tests), whole, or refuses
    /// it whole like an encoded one.
    mutating func admit(
        _ records: some Sequence<GatewayRecord>, header: GatewayReportHeader, receivedAt: Timestamp?,
        origin: ReportOrigin?, layout: SiteLayout
    ) throws(ReportRefusal) -> Admitted {
        staged.removeAll(keepingCapacity: true)
        staged.append(contentsOf: records)
        try refuseOverCap(staged.count, gateway: header.gateway)
        return try check(header, .staged, receivedAt: receivedAt, origin: origin, seal: nil, layout: layout)
    }

    private func refuseOverCap(_ count: Int, gateway: String) throws(ReportRefusal) {
        guard count > maxRecordsPerReport else { return }
        throw ReportRefusal(
            .tooManyRecords, gateway: gateway,
            "\(count) records, more than hub.maxRecordsPerReport (\(maxRecordsPerReport))")
    }

    /// Checks the report against the site, its topic, its seal, physical ranges and its
    /// gateway's clock, in that order.
    private mutating func check(
        _ header: GatewayReportHeader, _ records: Records, receivedAt: Timestamp?, origin: ReportOrigin?,
        seal: SignedReport.Parts?, layout: SiteLayout
    ) throws(ReportRefusal) -> Admitted {
        let gateway = try admission.gateway(of: header, in: layout)
        if let origin {
            guard origin.gateway == header.gateway else {
                throw ReportRefusal(.wrongTopic, gateway: header.gateway, "published under gateway '\(origin.gateway)''s topic")
            }
            let elsewhere: (BeaconID) -> Bool = { SiteTopics.bucket(of: $0, count: origin.bucketCount) != origin.bucket }
            let stray: BeaconID? =
                switch records {
                case .staged: staged.first { elsewhere($0.beacon) }?.beacon
                case .binary(let view): view.firstBeacon(where: elsewhere)
                }
            if let beacon = stray {
                throw ReportRefusal(
                    .wrongBucket, gateway: header.gateway,
                    "\(beacon) belongs to bucket \(SiteTopics.bucket(of: beacon, count: origin.bucketCount)), not \(origin.bucket)"
                )
            }
        }
        if let key = layout.gateways[gateway].key {
            try admission.authenticate(seal, key: key, gateway: gateway, id: header.gateway, receivedAt: receivedAt)
        }
        let problem: String? =
            switch records {
            case .staged: staged.lazy.compactMap { $0.rangeProblem(reportTime: header.time) }.first
            case .binary(let view): view.firstRangeProblem()
            }
        if let problem { throw ReportRefusal(.outOfRange, gateway: header.gateway, problem) }
        let offset = try admission.clockOffset(header, gateway: gateway, receivedAt: receivedAt)
        return Admitted(gateway: gateway, offset: offset, time: header.time.nanosecondsSinceEpoch &+ offset, records: records)
    }
}
