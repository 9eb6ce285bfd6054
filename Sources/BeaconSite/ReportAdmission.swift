import BeaconCore
import BeaconSiteReport

/// The hub's door for gateway reports, as a stage: which gateway of the site a report is from,
/// whether its seal is that gateway's (`SealSequences`: above the last taken, never twice, live
/// within the signature window), and the offset that maps the gateway's times onto the hub's
/// (`GatewayClock`). ``ReportIntake`` asks it in order — the gateway, the topic and bucket, the
/// seal, the values, the clock; it reads no beacon, evidence or cycle (`ReportAdmissionTests`).
struct ReportAdmission {
    /// Each gateway's clock offset, in layout order.
    private(set) var clocks: [GatewayClock]
    /// The sequences each signing gateway's seals have carried, in layout order.
    private(set) var seals: [SealSequences]
    /// Ids of gateways that sent reports but are not in the layout (at most 64, for the log).
    private(set) var unknownGateways: Set<String> = []
    /// How far a live seal's time may be from the hub's clock.
    let signatureWindow: Duration

    /// The door of a site of `gatewayCount` gateways.
    init(gatewayCount: Int, clockTolerance: Duration, signatureWindow: Duration) {
        clocks = Array(repeating: GatewayClock(tolerance: clockTolerance), count: gatewayCount)
        seals = Array(repeating: SealSequences(), count: gatewayCount)
        self.signatureWindow = signatureWindow
    }

    /// The index in `layout` of the gateway `header` names; a stranger is remembered (for the
    /// log) and refused.
    mutating func gateway(of header: GatewayReportHeader, in layout: SiteLayout) throws(ReportRefusal) -> Int {
        guard let gateway = layout.index(of: header.gateway) else {
            if unknownGateways.count < 64 { unknownGateways.insert(header.gateway) }
            throw ReportRefusal(.unknownGateway, gateway: header.gateway, "not one of the site's gateways:")
        }
        return gateway
    }

    /// Checks a signing gateway's seal: there, made with its key, with a sequence above the last
    /// taken and (live) within the signature window of the hub's clock; then takes its sequence.
    mutating func authenticate(
        _ seal: SignedReport.Parts?, key: GatewayKey, gateway: Int, id: String, receivedAt: Timestamp?
    ) throws(ReportRefusal) {
        guard let seal else {
            throw ReportRefusal(.unsigned, gateway: id, "the gateway has a key: its reports must be signed")
        }
        guard seal.verifies(with: key) else {
            throw ReportRefusal(.badSignature, gateway: id, "the signature is not the gateway's key's")
        }
        switch seals[gateway].refusal(of: seal.sequence) {
        case .notAboveFloor(let floor):
            throw ReportRefusal(.replayed, gateway: id, "sequence \(seal.sequence) is not above the last taken, \(floor)")
        case .taken:
            throw ReportRefusal(.replayed, gateway: id, "sequence \(seal.sequence) was taken already")
        case nil: break
        }
        if let receivedAt {
            let sealedAt = Timestamp(nanosecondsSinceEpoch: Int64(clamping: seal.sequence))
            let age = receivedAt - sealedAt
            guard age <= signatureWindow, age >= .zero - signatureWindow else {
                throw ReportRefusal(
                    .replayed, gateway: id,
                    "sealed at \(sealedAt), received at \(receivedAt): outside hub.signatureWindow (\(signatureWindow.humanReadable))"
                )
            }
        }
        seals[gateway].take(seal.sequence, clock: receivedAt.map { UInt64(clamping: $0.nanosecondsSinceEpoch) })
    }

    /// The offset (ns) that maps gateway `gateway`'s times onto the hub's, from a report it sent
    /// at `header.time` that arrived at `receivedAt`; 0 without a receive time (replay).
    mutating func clockOffset(
        _ header: GatewayReportHeader, gateway: Int, receivedAt: Timestamp?
    ) throws(ReportRefusal) -> Int64 {
        guard let receivedAt else { return 0 }
        guard
            let offset = clocks[gateway].observe(
                sent: header.time.nanosecondsSinceEpoch, received: receivedAt.nanosecondsSinceEpoch)
        else {
            throw ReportRefusal(
                .clock, gateway: header.gateway,
                "its time \(header.time) is later than the gateway's clock allows (received at \(receivedAt))")
        }
        return offset
    }
}
