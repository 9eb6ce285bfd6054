import BeaconCore
import BeaconWire

/// Every beacon's HCI advertising report event, encoded once by BeaconWire's encoders with a
/// placeholder RSSI; a report is then a copy of the template with its RSSI byte patched.
///
/// Eddystone beacons with telemetry send a TLM frame every `every` advertisements instead; those
/// (rare) events are encoded on the fly, straight into the batch.
struct FrameTemplates {
    /// Legacy `ADV_NONCONN_IND`, what beacons send.
    static let legacyEventType: UInt8 = 0x03
    /// Extended report event type for a legacy `ADV_NONCONN_IND` PDU (bit 4: legacy).
    static let extendedEventType: UInt16 = 0x0010

    let format: AdvertisingReportKind
    let bytes: [UInt8]
    let offsets: [Int32]
    let lengths: [Int32]
    let rssiPositions: [Int32]
    let beacons: [BeaconSpec]
    /// Per beacon: one TLM frame every this many advertisements (0: no telemetry).
    let telemetryEvery: [UInt32]
    /// Per beacon: a phone's changing address (`nil` for a beacon), and where in its template the
    /// address's six bytes are.
    let phones: [PhoneAddressing?]
    let addressPositions: [Int32]

    init(beacons: [BeaconSpec], format: AdvertisingReportKind) {
        self.format = format
        self.beacons = beacons
        telemetryEvery = beacons.map { UInt32($0.telemetry?.every ?? 0) }
        phones = beacons.map { beacon in
            guard case let .phone(name, irk, rotation) = beacon.identity else { return nil }
            return PhoneAddressing(name: name, irk: irk, rotation: rotation)
        }
        var addressPositions: [Int32] = []
        var bytes: [UInt8] = []
        var offsets: [Int32] = [], lengths: [Int32] = [], rssiPositions: [Int32] = []
        var first: [UInt8] = [], second: [UInt8] = []
        for beacon in beacons {
            first.removeAll(keepingCapacity: true)
            second.removeAll(keepingCapacity: true)
            Self.appendEvent(format: format, beacon: beacon, rssi: 0x11, to: &first) {
                Self.appendIdentityData(beacon, to: &$0)
            }
            Self.appendEvent(format: format, beacon: beacon, rssi: 0x22, to: &second) {
                Self.appendIdentityData(beacon, to: &$0)
            }
            // The RSSI byte is the one byte that differs between the two encodings.
            let position = zip(first, second).enumerated().first { $0.element.0 != $0.element.1 }!.offset
            // The address's first byte is the first that differs from an encoding with another address.
            var moved = beacon
            moved.address = BluetoothAddress(rawValue: ~beacon.address.rawValue)
            second.removeAll(keepingCapacity: true)
            Self.appendEvent(format: format, beacon: moved, rssi: 0x11, to: &second) {
                Self.appendIdentityData(beacon, to: &$0)
            }
            addressPositions.append(Int32(zip(first, second).enumerated().first { $0.element.0 != $0.element.1 }!.offset))
            offsets.append(Int32(bytes.count))
            lengths.append(Int32(first.count))
            rssiPositions.append(Int32(position))
            bytes += first
        }
        self.bytes = bytes
        self.offsets = offsets
        self.lengths = lengths
        self.rssiPositions = rssiPositions
        self.addressPositions = addressPositions
    }

    /// Appends one report of `beacon` received at `rssi`.
    @inline(__always)
    func append(
        beacon: Int, rssi: Int8, advertisementCount: UInt32, uptimeNanoseconds: Int64, timestamp: Timestamp,
        to batch: inout PacketBatch
    ) {
        let every = telemetryEvery[beacon]
        if every > 0, advertisementCount % every == 0, let telemetry = beacons[beacon].telemetry {
            appendTelemetry(
                beacon: beacons[beacon], telemetry: telemetry, rssi: rssi, count: advertisementCount,
                uptime: .nanoseconds(uptimeNanoseconds), timestamp: timestamp, to: &batch)
            return
        }
        let start = Int(offsets[beacon])
        let end = start + Int(lengths[beacon])
        let patch = Int(rssiPositions[beacon])
        let phone = phones[beacon]?.address(atNanoseconds: timestamp.nanosecondsSinceEpoch)
        let addressAt = Int(addressPositions[beacon])
        bytes.withUnsafeBufferPointer { all in
            batch.append(linkType: .hciH4, timestamp: timestamp) { buffer in
                let base = buffer.count
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: all[start..<end]))
                buffer[base + patch] = UInt8(bitPattern: rssi)
                if let phone {
                    for index in 0..<6 {
                        buffer[base + addressAt + index] = UInt8(truncatingIfNeeded: phone.rawValue >> UInt64(8 * index))
                    }
                }
            }
        }
    }

    func appendTelemetry(
        beacon: BeaconSpec, telemetry: BeaconSpec.Telemetry, rssi: Int8, count: UInt32,
        uptime: Duration, timestamp: Timestamp, to batch: inout PacketBatch
    ) {
        let days = uptime.secondsValue / 86_400
        let millivolts = Double(telemetry.batteryMillivolts) - telemetry.drainMillivoltsPerDay * days
        let frame = EddystoneTLM(
            batteryMillivolts: UInt16(max(0, min(65_535, millivolts.rounded()))),
            temperatureRaw: Int16(max(-32_768, min(32_767, (telemetry.temperature * 256).rounded()))),
            advertisingCount: count,
            uptimeTenthsOfSeconds: UInt32(truncatingIfNeeded: uptime.nanoseconds / 100_000_000))
        batch.append(linkType: .hciH4, timestamp: timestamp) { buffer in
            Self.appendEvent(format: format, beacon: beacon, rssi: rssi, to: &buffer) {
                AdvertisingDataEncoder.appendFlags(to: &$0)
                AdvertisingDataEncoder.appendEddystoneTLM(frame, to: &$0)
            }
        }
    }

    static func appendEvent(
        format: AdvertisingReportKind, beacon: BeaconSpec, rssi: Int8, to buffer: inout [UInt8],
        data: (inout [UInt8]) -> Void
    ) {
        switch format {
        case .legacy:
            HCIEventEncoder.appendLEAdvertisingReport(
                eventType: legacyEventType, addressType: .random, address: beacon.address, rssi: rssi,
                to: &buffer, data: data)
        case .extended:
            HCIEventEncoder.appendLEExtendedAdvertisingReport(
                eventType: extendedEventType, addressType: .random, address: beacon.address, rssi: rssi,
                to: &buffer, data: data)
        case .directed, .linkLayer:
            preconditionFailure("GatewaySpec refuses \(format.name) reports: a controller delivers legacy or extended ones")
        }
    }

    /// The flags and the identity frame of `beacon`.
    static func appendIdentityData(_ beacon: BeaconSpec, to buffer: inout [UInt8]) {
        AdvertisingDataEncoder.appendFlags(to: &buffer)
        let power = Int8(clamping: beacon.measuredPower)
        let id = beacon.identity.beaconID
        switch beacon.identity {
        case let .iBeacon(_, major, minor):
            AdvertisingDataEncoder.appendIBeacon(
                IBeaconFrame(uuidHigh: id.high, uuidLow: id.low, major: major, minor: minor, measuredPower: power),
                to: &buffer)
        case let .altBeacon(_, id2, id3, manufacturer):
            AdvertisingDataEncoder.appendAltBeacon(
                AltBeaconFrame(
                    companyID: manufacturer, id1High: id.high, id1Low: id.low, id2: id2, id3: id3,
                    referenceRSSI: power), to: &buffer)
        case .phone:
            // What a phone sends between connections: Apple's Nearby Info, no beacon frame.
            buffer.append(contentsOf: [0x07, 0xFF, 0x4C, 0x00, 0x10, 0x02, 0x0B, 0x00] as [UInt8])
        case let .eddystoneUID(namespace, instance):
            let nsHigh = UInt16(namespace[0]) << 8 | UInt16(namespace[1])
            let nsLow = namespace[2...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let inst = instance.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            // Eddystone carries the power at 0 m: 41 dB above the power at 1 m.
            AdvertisingDataEncoder.appendEddystoneUID(
                EddystoneUID(
                    txPowerAt0m: Int8(clamping: beacon.measuredPower + 41), namespaceHigh: nsHigh,
                    namespaceLow: nsLow, instance: inst), to: &buffer)
        }
    }
}
