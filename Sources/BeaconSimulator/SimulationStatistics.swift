/// What happened to the advertisements of a run, at one gateway.
public struct SimulationStatistics: Hashable, Sendable {
    /// Advertising events transmitted by beacons on site.
    public var advertisements = 0
    /// Advertising events too far from the gateway to ever be received (mean power more than
    /// 3σ below the sensitivity); they take no part in collisions either.
    public var outOfRange = 0
    /// Advertising events during which the scanner was not listening on any of their channels.
    public var missedByScanner = 0
    /// Receptions lost because another advertisement overlapped on the channel.
    public var lostToCollisions = 0
    /// Receptions lost to the random packet-loss probability.
    public var lostToPacketLoss = 0
    /// Receptions whose RSSI fell below the sensitivity.
    public var belowSensitivity = 0
    /// HCI advertising reports emitted.
    public var reports = 0

    /// Creates empty statistics.
    public init() {}

    /// Adds another gateway's counts to these (a site's totals).
    public mutating func add(_ other: SimulationStatistics) {
        advertisements += other.advertisements
        outOfRange += other.outOfRange
        missedByScanner += other.missedByScanner
        lostToCollisions += other.lostToCollisions
        lostToPacketLoss += other.lostToPacketLoss
        belowSensitivity += other.belowSensitivity
        reports += other.reports
    }
}
