import BeaconCore

/// A binary report checked whole — header, lengths, kinds — whose records are read in place,
/// as often as needed, without being copied: what a hub files records from.
package struct GatewayReportView {
    /// The report's header.
    package let header: GatewayReportHeader
    let bytes: UnsafeRawBufferPointer
    let recordsStart: Int

    /// Calls `body` with each record, in order.
    @inline(__always)
    package func forEachRecord(_ body: (GatewayRecord) -> Void) {
        var offset = recordsStart
        for _ in 0..<header.recordCount {
            body(record(at: &offset))
        }
    }

    /// Calls `body` with each record's beacon, in order.
    @inline(__always)
    package func forEachBeacon(_ body: (BeaconID) -> Void) {
        var offset = recordsStart
        for _ in 0..<header.recordCount {
            let beacon = beacon(at: offset)
            body(beacon)
            offset += GatewayReportDecoder.recordSize(beacon.kind)
        }
    }

    /// The first beacon, in order, for which `predicate` holds.
    package func firstBeacon(where predicate: (BeaconID) -> Bool) -> BeaconID? {
        var offset = recordsStart
        for _ in 0..<header.recordCount {
            let beacon = beacon(at: offset)
            if predicate(beacon) { return beacon }
            offset += GatewayReportDecoder.recordSize(beacon.kind)
        }
        return nil
    }

    /// What is physically impossible in the first record that has something impossible (as
    /// `GatewayRecord.rangeProblem(reportTime:)` says it), or `nil`: checked on the integers as
    /// they lie in the report. (A sighting cannot come after the report's time: ages are
    /// unsigned.)
    package func firstRangeProblem() -> String? {
        var offset = recordsStart
        for _ in 0..<header.recordCount {
            let kind = bytes[offset] & 0x7F
            let values = offset + 1 + (kind == BeaconID.Kind.eddystoneUID.rawValue ? 16 : 20)
            let rssi = Int16(bitPattern: load(UInt16.self, values))
            let mean = Int16(bitPattern: load(UInt16.self, values + 2))
            let distance = load(UInt16.self, values + 4)
            let accuracy = load(UInt16.self, values + 6)
            let power = Int8(bitPattern: bytes[values + 12])
            // In centi-dB and centimetres: −127…+20 dBm, 0…655 m; the absent markers pass.
            let possible =
                (rssi == .min || (-12_700...2_000).contains(rssi)) && (mean == .min || (-12_700...2_000).contains(mean))
                && (distance == .max || distance <= 65_500) && (accuracy == .max || accuracy <= 65_500)
                && (power == 127 || (-127...20).contains(power))
            if !possible {
                var at = offset
                return record(at: &at).rangeProblem(reportTime: header.time)
            }
            offset = values + 13
        }
        return nil
    }

    @inline(__always)
    private func beacon(at offset: Int) -> BeaconID {
        let kind = BeaconID.Kind(rawValue: bytes[offset] & 0x7F)!
        let high = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 1, as: UInt64.self))
        let low = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 9, as: UInt64.self))
        switch kind {
        case .iBeacon, .altBeacon:
            let tail = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 17, as: UInt32.self))
            return kind == .iBeacon
                ? .iBeacon(uuidHigh: high, uuidLow: low, major: UInt16(tail >> 16), minor: UInt16(truncatingIfNeeded: tail))
                : .altBeacon(id1High: high, id1Low: low, id2: UInt16(tail >> 16), id3: UInt16(truncatingIfNeeded: tail))
        case .eddystoneUID:
            return .eddystoneUID(
                namespaceHigh: UInt16(truncatingIfNeeded: high >> 48),
                namespaceLow: high << 16 | low >> 48, instance: low & 0xFFFF_FFFF_FFFF)
        case .device:
            let tail = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 17, as: UInt32.self))
            return .device(high: high, low: low, tail: tail)
        }
    }

    /// The record at `offset`, which moves past it.
    @inline(__always)
    private func record(at offset: inout Int) -> GatewayRecord {
        let kindByte = bytes[offset]
        let beacon = beacon(at: offset)
        let cursor = offset + 1 + (beacon.kind == .eddystoneUID ? 16 : 20)
        let rssi = Int16(bitPattern: load(UInt16.self, cursor))
        let mean = Int16(bitPattern: load(UInt16.self, cursor + 2))
        let distance = load(UInt16.self, cursor + 4)
        let accuracy = load(UInt16.self, cursor + 6)
        let samples = load(UInt16.self, cursor + 8)
        let age = load(UInt16.self, cursor + 10)
        let power = Int8(bitPattern: bytes[cursor + 12])
        offset = cursor + 13
        // `header.time - .milliseconds(age)` (saturating), without its 128-bit arithmetic.
        let (difference, overflow) = header.time.nanosecondsSinceEpoch.subtractingReportingOverflow(Int64(age) * 1_000_000)
        let lastSeen = overflow ? Int64.min : difference
        return GatewayRecord(
            beacon: beacon, rssi: rssi == .min ? nil : Double(rssi) / 100,
            meanRSSI: mean == .min ? nil : Double(mean) / 100, distance: distance == .max ? nil : Double(distance) / 100,
            accuracy: accuracy == .max ? nil : Double(accuracy) / 100,
            sampleCount: Int(samples), seen: kindByte & 0x80 != 0,
            lastSeen: Timestamp(nanosecondsSinceEpoch: lastSeen),
            measuredPower: power == 127 ? nil : power)
    }

    @inline(__always)
    private func load<T: FixedWidthInteger>(_ type: T.Type, _ offset: Int) -> T {
        T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
