import BeaconCore

extension BeaconLayout {
    /// The frame in the data of one AD structure (after its type byte), or `nil` when it does not
    /// match. Allocates nothing.
    @inlinable
    public func frame(inStructureData d: UnsafeRawBufferPointer) -> BeaconFrame? {
        guard d.count >= minimumLength else { return nil }
        for index in matchOffsets.indices where d[matchOffsets[index]] != matchBytes[index] { return nil }
        let power = powerOffset.map { Int8(clamping: Int(Int8(bitPattern: d[$0])) + powerCorrection) }
        let id: BeaconID
        switch kind {
        case .iBeacon, .altBeacon:
            let high = word(d, identifiers[0].lowerBound, 8), low = word(d, identifiers[0].lowerBound + 8, 8)
            let second = UInt16(word(d, identifiers[1].lowerBound, 2)), third = UInt16(word(d, identifiers[2].lowerBound, 2))
            id =
                kind == .iBeacon
                ? .iBeacon(uuidHigh: high, uuidLow: low, major: second, minor: third)
                : .altBeacon(id1High: high, id1Low: low, id2: second, id3: third)
        case .eddystoneUID:
            let namespace = identifiers[0].lowerBound
            id = .eddystoneUID(
                namespaceHigh: UInt16(word(d, namespace, 2)), namespaceLow: word(d, namespace + 2, 8),
                instance: word(d, identifiers[1].lowerBound, 6))
        case .device:
            // A layout of this kind is refused when it is made.
            return nil
        }
        return BeaconFrame(id: id, measuredPower: power)
    }

    /// The first frame of this layout in advertising data (AD structures), or `nil`.
    @inlinable
    public func frame(inAdvertisingData data: UnsafeRawBufferPointer) -> BeaconFrame? {
        let type: UInt8 = isServiceData ? 0x16 : 0xFF
        var structures = ADStructureIterator(data)
        while let structure = try? structures.next() {
            if structure.type.rawValue == type, let frame = frame(inStructureData: structure.data) { return frame }
        }
        return nil
    }

    /// `count` bytes at `offset`, big-endian.
    @inlinable
    func word(_ d: UnsafeRawBufferPointer, _ offset: Int, _ count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + count) { value = value << 8 | UInt64(d[index]) }
        return value
    }
}

extension BeaconSighting {
    /// The sighting an advertising report amounts to under the built-in frames, then under
    /// `layouts` (a configuration's vendor frames), in order; `nil` when none matches.
    /// Allocates nothing.
    @inlinable
    public init?(report: AdvertisingReport, timestamp: Timestamp, layouts: [BeaconLayout]) {
        if let sighting = BeaconSighting(report: report, timestamp: timestamp) {
            self = sighting
            return
        }
        for layout in layouts {
            if let frame = layout.frame(inAdvertisingData: report.data) {
                self.init(
                    timestamp: timestamp, id: frame.id, address: report.address, addressType: report.addressType,
                    rssi: report.rssi, measuredPower: frame.measuredPower)
                return
            }
        }
        return nil
    }
}
