import BeaconCore

extension BeaconID {
    /// The identity as 4 words for the plugin ABI: kind, high, low, tail.
    func writePluginWords(to words: UnsafeMutablePointer<UInt64>) {
        words[0] = UInt64(kind.rawValue)
        words[1] = high
        words[2] = low
        words[3] = UInt64(tail)
    }

    /// The identity from its 4 plugin words.
    init(pluginWords words: UnsafePointer<UInt64>) {
        let high = words[1], low = words[2], tail = UInt32(truncatingIfNeeded: words[3])
        switch Kind(rawValue: UInt8(truncatingIfNeeded: words[0])) ?? .iBeacon {
        case .iBeacon:
            self = .iBeacon(
                uuidHigh: high, uuidLow: low, major: UInt16(truncatingIfNeeded: tail >> 16),
                minor: UInt16(truncatingIfNeeded: tail))
        case .altBeacon:
            self = .altBeacon(
                id1High: high, id1Low: low, id2: UInt16(truncatingIfNeeded: tail >> 16),
                id3: UInt16(truncatingIfNeeded: tail))
        case .eddystoneUID:
            self = .eddystoneUID(
                namespaceHigh: UInt16(truncatingIfNeeded: high >> 48),
                namespaceLow: high << 16 | low >> 48, instance: low & 0xFFFF_FFFF_FFFF)
        case .device:
            self = .device(high: high, low: low, tail: tail)
        }
    }
}

extension RangedBeacon {
    private static let none = UInt64(bitPattern: Int64.min)

    /// The beacon as ``StrategyPluginABI/beaconWordCount`` words: identity (4), address,
    /// address count, seen (0/1), sample count, last RSSI, mean RSSI, filtered RSSI, measured
    /// power, distance, accuracy, proximity, first seen, last seen. Integers are two's
    /// complement with `Int64.min` for none; reals are IEEE bit patterns with NaN for none.
    func writePluginWords(to words: UnsafeMutablePointer<UInt64>) {
        id.writePluginWords(to: words)
        words[4] = lastAddress.rawValue
        words[5] = UInt64(bitPattern: Int64(addressCount))
        words[6] = seenThisCycle ? 1 : 0
        words[7] = UInt64(bitPattern: Int64(sampleCount))
        words[8] = lastRSSI.map { UInt64(bitPattern: Int64($0)) } ?? Self.none
        words[9] = (meanRSSI ?? .nan).bitPattern
        words[10] = (filteredRSSI ?? .nan).bitPattern
        words[11] = measuredPower.map { UInt64(bitPattern: Int64($0)) } ?? Self.none
        words[12] = (distance ?? .nan).bitPattern
        words[13] = (accuracy ?? .nan).bitPattern
        words[14] = UInt64(proximity.rawValue)
        words[15] = UInt64(bitPattern: firstSeen.nanosecondsSinceEpoch)
        words[16] = UInt64(bitPattern: lastSeen.nanosecondsSinceEpoch)
    }

    /// The beacon from its plugin words.
    init(pluginWords words: UnsafePointer<UInt64>) {
        func int8(_ word: UInt64) -> Int8? { word == Self.none ? nil : Int8(truncatingIfNeeded: Int64(bitPattern: word)) }
        func real(_ word: UInt64) -> Double? {
            let value = Double(bitPattern: word)
            return value.isNaN ? nil : value
        }
        self.init(
            id: BeaconID(pluginWords: words), lastAddress: BluetoothAddress(rawValue: words[4]),
            addressCount: Int(Int64(bitPattern: words[5])), seenThisCycle: words[6] != 0,
            sampleCount: Int(Int64(bitPattern: words[7])), lastRSSI: int8(words[8]), meanRSSI: real(words[9]),
            filteredRSSI: real(words[10]), measuredPower: int8(words[11]), distance: real(words[12]),
            accuracy: real(words[13]), proximity: Proximity(rawValue: UInt8(truncatingIfNeeded: words[14])) ?? .unknown,
            firstSeen: Timestamp(nanosecondsSinceEpoch: Int64(bitPattern: words[15])),
            lastSeen: Timestamp(nanosecondsSinceEpoch: Int64(bitPattern: words[16])))
    }
}
