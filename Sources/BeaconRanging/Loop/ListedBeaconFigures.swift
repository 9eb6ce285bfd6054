import BeaconCore

/// One listed beacon's figures at the end of a cycle, written into a ``RangedBeacon`` as its
/// initialiser would make it (the fields a site hub fills left empty).
struct ListedBeaconFigures {
    let id: BeaconID
    let address: UInt64
    let addressCount: Int
    let seen: Bool
    let samples: Int
    let lastRSSI: Int8?
    let meanRSSI: Double?
    let filtered: Double?
    let power: Int8
    let distance: Double?
    let accuracy: Double?
    let proximity: Proximity
    let firstSeen: Timestamp
    let lastSeen: Timestamp

    /// The figures as a new value.
    var ranged: RangedBeacon {
        RangedBeacon(
            id: id, lastAddress: BluetoothAddress(rawValue: address), addressCount: addressCount,
            seenThisCycle: seen, sampleCount: samples, lastRSSI: lastRSSI, meanRSSI: meanRSSI,
            filteredRSSI: filtered, measuredPower: power, distance: distance, accuracy: accuracy,
            proximity: proximity, firstSeen: firstSeen, lastSeen: lastSeen)
    }

    /// Overwrites every field of `ranged` in place: no 232-byte copy, and its strings (nil for a
    /// gateway's own ranging) are only checked. Debug builds check the result against ``ranged``.
    @inline(__always)
    func write(into ranged: inout RangedBeacon) {
        ranged.id = id
        ranged.lastAddress = BluetoothAddress(rawValue: address)
        ranged.addressCount = addressCount
        ranged.seenThisCycle = seen
        ranged.sampleCount = samples
        ranged.gatewayCount = seen ? 1 : 0
        ranged.lastRSSI = lastRSSI
        ranged.meanRSSI = meanRSSI
        ranged.filteredRSSI = filtered
        ranged.measuredPower = power
        ranged.distance = distance
        ranged.accuracy = accuracy
        ranged.proximity = proximity
        ranged.firstSeen = firstSeen
        ranged.lastSeen = lastSeen
        if ranged.room != nil { ranged.room = nil }
        if ranged.floor != nil { ranged.floor = nil }
        ranged.position = nil
        ranged.roomConfidence = nil
        ranged.roomUnknown = false
    }
}
