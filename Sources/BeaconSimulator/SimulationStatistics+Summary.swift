extension SimulationStatistics {
    /// The counters as labelled rows, in pipeline order (for summary tables).
    public var rows: [(label: String, value: Int)] {
        [
            ("advertisements", advertisements), ("out of range", outOfRange), ("missed by scanner", missedByScanner),
            ("lost to collisions", lostToCollisions), ("lost to packet loss", lostToPacketLoss),
            ("below sensitivity", belowSensitivity), ("reports", reports),
        ]
    }

    /// Adds another gateway's (or run's) counters.
    public static func + (a: SimulationStatistics, b: SimulationStatistics) -> SimulationStatistics {
        var sum = a
        sum.advertisements += b.advertisements
        sum.outOfRange += b.outOfRange
        sum.missedByScanner += b.missedByScanner
        sum.lostToCollisions += b.lostToCollisions
        sum.lostToPacketLoss += b.lostToPacketLoss
        sum.belowSensitivity += b.belowSensitivity
        sum.reports += b.reports
        return sum
    }
}

extension SimulationStatistics: CustomStringConvertible {
    /// A two-column table: label, count.
    public var description: String {
        let width = rows.map(\.label.count).max() ?? 0
        return rows.map { $0.label + String(repeating: " ", count: width - $0.label.count + 2) + "\($0.value)" }
            .joined(separator: "\n")
    }
}
