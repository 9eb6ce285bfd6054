import BeaconCore

/// What one gateway says about one beacon at the end of one of its ranging cycles: the unit a
/// gateway publishes and a site hub fuses.
///
/// Values are those of the gateway's `RangedBeacon`, rounded to what the wire format keeps
/// (RSSI to 1/100 dB, distances to the centimetre, ages to the millisecond).
public struct GatewayRecord: Hashable, Sendable {
    /// The beacon.
    public var beacon: BeaconID
    /// The filtered RSSI, dBm (`nil` when the gateway has no usable signal).
    public var rssi: Double?
    /// The mean RSSI of the cycle's sightings, dBm (`nil` when none had one): what rooms and
    /// positions are fused from, since the filter lags several seconds behind a walking tag.
    public var meanRSSI: Double?
    /// The gateway's distance estimate, metres.
    public var distance: Double?
    /// The distance's uncertainty (one standard deviation), metres.
    public var accuracy: Double?
    /// Sightings during the cycle.
    public var sampleCount: Int
    /// Whether the gateway heard the beacon during the cycle (false: within its missed-scan grace).
    public var seen: Bool
    /// The latest sighting, on the gateway's clock.
    public var lastSeen: Timestamp
    /// The beacon's measured power (RSSI at 1 m), if known.
    public var measuredPower: Int8?

    /// Creates a record.
    @inlinable
    public init(
        beacon: BeaconID, rssi: Double?, meanRSSI: Double? = nil, distance: Double?, accuracy: Double?, sampleCount: Int,
        seen: Bool,
        lastSeen: Timestamp, measuredPower: Int8? = nil
    ) {
        self.beacon = beacon
        self.rssi = rssi
        self.meanRSSI = meanRSSI
        self.distance = distance
        self.accuracy = accuracy
        self.sampleCount = sampleCount
        self.seen = seen
        self.lastSeen = lastSeen
        self.measuredPower = measuredPower
    }

    /// The record of a gateway's ranged beacon.
    @inlinable
    public init(_ beacon: RangedBeacon) {
        self.init(
            beacon: beacon.id, rssi: beacon.filteredRSSI, meanRSSI: beacon.meanRSSI, distance: beacon.distance,
            accuracy: beacon.accuracy,
            sampleCount: beacon.sampleCount, seen: beacon.seenThisCycle, lastSeen: beacon.lastSeen,
            measuredPower: beacon.measuredPower)
    }
}
