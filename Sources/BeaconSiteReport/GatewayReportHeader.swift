import BeaconCore

/// The part of a gateway report shared by all its records: who sent it and for which cycle.
public struct GatewayReportHeader: Hashable, Sendable {
    /// The sending gateway's id.
    public var gateway: String
    /// The end of the gateway's ranging cycle the records describe, on the gateway's clock.
    public var time: Timestamp
    /// The gateway's cycle length.
    public var cycleLength: Duration
    /// How many records follow.
    public var recordCount: Int

    /// Creates a header.
    public init(gateway: String, time: Timestamp, cycleLength: Duration, recordCount: Int) {
        self.gateway = gateway
        self.time = time
        self.cycleLength = cycleLength
        self.recordCount = recordCount
    }
}
