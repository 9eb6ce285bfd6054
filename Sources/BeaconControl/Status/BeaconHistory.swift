import BeaconCore

/// One beacon's recent RSSI as the status page plots it: a ring of the latest samples, one per
/// refresh of the page's data (about once a second while someone watches).
struct BeaconHistory: Sendable {
    /// One refresh's values.
    struct Sample: Sendable {
        /// The pipeline's cycle time.
        var time: Timestamp
        /// The cycle's mean RSSI (the loudest gateway's on a site), dBm.
        var raw: Float
        /// The filtered RSSI, dBm.
        var filtered: Float
        /// On a site: each gateway's RSSI, in the layout's order (NaN: not heard).
        var gateways: [Float]
    }

    private(set) var samples: [Sample] = []
    private var head = 0
    /// The refresh at which the beacon was last listed.
    var lastListed = 0

    /// Appends `sample`, dropping the oldest beyond `capacity`.
    mutating func append(_ sample: Sample, capacity: Int) {
        if samples.count < capacity {
            samples.append(sample)
        } else {
            samples[head] = sample
            head = (head + 1) % capacity
        }
    }

    /// The samples, oldest first.
    var ordered: [Sample] { Array(samples[head...] + samples[..<head]) }
}
