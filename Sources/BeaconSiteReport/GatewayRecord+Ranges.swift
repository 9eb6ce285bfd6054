import BeaconCore

extension GatewayRecord {
    /// The RSSI a receiver can report, dBm: HCI's range (−127…+20).
    public static let rssiRange: ClosedRange<Double> = -127...20
    /// The distances a gateway can state, metres (what the wire format can carry).
    public static let distanceRange: ClosedRange<Double> = 0...655

    /// What is physically impossible in this record, or `nil` when every value is in range: an
    /// RSSI or mean RSSI outside ``rssiRange``, a distance or accuracy outside ``distanceRange``
    /// (or not a number), a measured power outside ``rssiRange``, a last sighting after the
    /// report's time.
    public func rangeProblem(reportTime: Timestamp) -> String? {
        if let rssi, !Self.rssiRange.contains(rssi) { return "RSSI \(rssi) dBm of \(beacon) (a radio gives −127…+20)" }
        if let meanRSSI, !Self.rssiRange.contains(meanRSSI) {
            return "mean RSSI \(meanRSSI) dBm of \(beacon) (a radio gives −127…+20)"
        }
        if let distance, !Self.distanceRange.contains(distance) { return "distance \(distance) m of \(beacon)" }
        if let accuracy, !Self.distanceRange.contains(accuracy) { return "accuracy \(accuracy) m of \(beacon)" }
        if let measuredPower, !Self.rssiRange.contains(Double(measuredPower)) {
            return "measured power \(measuredPower) dBm of \(beacon)"
        }
        if lastSeen > reportTime { return "a sighting of \(beacon) after the report's own time" }
        return nil
    }
}
