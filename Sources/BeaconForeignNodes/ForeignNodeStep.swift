import BeaconSiteReport

/// What one message did to a ``ForeignGatewayNode``.
public struct ForeignNodeStep: Sendable {
    /// How the message was read: `nil` when its topic is not one of the node's.
    public var outcome: Result<ForeignPayload, ForeignPayloadRefusal>?
    /// The reports of the cycles the message's time closed (before it was ranged), in order.
    public var reports: [GatewayReportMessage]

    /// Creates a step.
    public init(outcome: Result<ForeignPayload, ForeignPayloadRefusal>?, reports: [GatewayReportMessage] = []) {
        self.outcome = outcome
        self.reports = reports
    }

    /// The refusal of the message, as the hub counts it, if it was refused.
    public func refusal(gateway: String, kind: ForeignNodeKind) -> ReportRefusal? {
        guard case .failure(let refusal) = outcome else { return nil }
        return refusal.reportRefusal(gateway: gateway, kind: kind)
    }
}
