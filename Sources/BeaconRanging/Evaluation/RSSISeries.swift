import BeaconCore

/// One receiver's RSSI samples of one beacon, with the true distance at each sample.
public struct RSSISeries: Sendable {
    /// A short name for tables.
    public var name: String
    /// Reception times, ascending.
    public var times: [Timestamp]
    /// RSSI (dBm).
    public var rssi: [Double]
    /// True distance (m) at each sample.
    public var truth: [Double]

    /// Runs a fresh filter of `kind` over the samples and returns its estimate after each one.
    public func filtered(with kind: RSSIFilterKind) -> [Double] {
        var filter = kind.makeFilter()
        var out: [Double] = []
        out.reserveCapacity(rssi.count)
        for i in rssi.indices {
            filter.add(rssi[i], at: times[i])
            out.append(filter.estimate ?? rssi[i])
        }
        return out
    }

    /// The median raw RSSI of the samples whose true distance is `distance` (all when `nil`).
    public func medianRSSI(atDistance distance: Double? = nil) -> Double? {
        let values = rssi.indices.filter { distance == nil || truth[$0] == distance }.map { rssi[$0] }
        return Statistics.quantile(values, 0.5)
    }
}
