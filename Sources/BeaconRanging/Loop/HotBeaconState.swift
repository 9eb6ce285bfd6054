import BeaconCore

/// The part of a tracked beacon's state that every advertisement touches, in one 64-byte record:
/// the identity words (so that a hash-index probe is confirmed from the same record), the last
/// time and address, this cycle's raw figures, the filtered estimate and the innovation variance.
/// Everything else (``ColdBeaconState``) is read at cycle end or when something rare happens (a
/// new address, a region member, a spike clamp, a filter other than ARMA).
///
/// Optionals are encoded to stay within 64 bytes: the estimate is NaN before the first sample
/// (samples are finite), the cycle's last RSSI means something only while `cycleRSSICount > 0`,
/// the frame's measured power only with its flag. The field order packs the record without
/// padding; ``RangingLoop`` keeps these records in slot order, apart from the cold state.
struct HotBeaconState: Sendable {
    let idHigh: UInt64
    let idLow: UInt64
    /// Latest sighting time (ns since the epoch).
    var lastSeen: Int64
    /// Raw value of the latest address; the cold address history is touched only when it changes.
    var lastAddress: UInt64
    /// The filter's estimate (dBm), NaN before the first sample. With the ARMA filter this is the
    /// filter's whole state; other filters live in the cold state and this is a copy of theirs.
    var estimate = Double.nan
    let idTail: UInt32
    /// Exponentially weighted mean of squared innovations (sample − estimate before it), dB².
    /// Starts at 4 dB² (σ = 2 dB), a typical RSSI spread, until samples say otherwise.
    var innovationVariance: Float = 4
    // This cycle's raw samples.
    var cycleSamples: Int32 = 0
    var cycleRSSISum: Int32 = 0
    var cycleRSSICount: Int32 = 0
    let idKind: UInt8
    var cycleLastRSSI: Int8 = 0
    var frameMeasuredPower: Int8 = 0
    var flags: UInt8

    /// `flags` bit: `frameMeasuredPower` holds a value.
    static let hasMeasuredPower: UInt8 = 1
    /// `flags` bit: the beacon belongs to at least one configured region.
    static let inRegions: UInt8 = 2
    /// `flags` bit: the beacon passed its enter confirmation (``EnterConfirmation``): it is listed.
    static let confirmed: UInt8 = 4
    /// Weight of a new innovation in ``innovationVariance``.
    static let varianceWeight: Float = 0.1

    init(id: BeaconID, time: Timestamp, address: BluetoothAddress, inRegions: Bool, confirmed: Bool = true) {
        idHigh = id.high
        idLow = id.low
        idTail = id.tail
        idKind = id.kind.rawValue
        lastSeen = time.nanosecondsSinceEpoch
        lastAddress = address.rawValue
        flags = (inRegions ? Self.inRegions : 0) | (confirmed ? Self.confirmed : 0)
    }

    /// Whether this record is `id`'s (compares the identity's words; no call).
    @inline(__always)
    func matches(_ id: BeaconID) -> Bool {
        idHigh == id.high && idLow == id.low && idTail == id.tail && idKind == id.kind.rawValue
    }

    /// Measured power from the latest frame that carried one.
    var measuredPower: Int8? { flags & Self.hasMeasuredPower != 0 ? frameMeasuredPower : nil }
    /// This cycle's latest RSSI.
    var lastRSSI: Int8? { cycleRSSICount > 0 ? cycleLastRSSI : nil }
    /// The filtered RSSI, `nil` before the first sample.
    var filtered: Double? { estimate.isNaN ? nil : estimate }

    /// Records what every sighting contributes whatever the filter: time, measured power and
    /// this cycle's raw counts.
    @inline(__always)
    mutating func count(_ sighting: BeaconSighting) {
        let t = sighting.timestamp.nanosecondsSinceEpoch
        if t > lastSeen { lastSeen = t }
        if let power = sighting.measuredPower {
            frameMeasuredPower = power
            flags |= Self.hasMeasuredPower
        }
        cycleSamples &+= 1
        guard let rssi = sighting.rssi else { return }
        cycleRSSICount &+= 1
        cycleRSSISum &+= Int32(rssi)
        cycleLastRSSI = rssi
    }

    /// Updates the innovation variance with `sample` against the estimate before it (call before
    /// the filter takes the sample).
    @inline(__always)
    mutating func observeInnovation(_ sample: Double) {
        guard !estimate.isNaN else { return }
        let innovation = Float(sample - estimate)
        innovationVariance += Self.varianceWeight * (innovation * innovation - innovationVariance)
    }

    mutating func startCycle() {
        cycleSamples = 0
        cycleRSSICount = 0
        cycleRSSISum = 0
    }
}
