import BeaconCore
import BeaconWire
import Foundation

/// A scripted beacon presence: the beacon advertises every `every` while inside one of its
/// intervals (seconds from `start`), and nothing is heard otherwise. Used to drive the pipeline
/// with sightings, and to write the same timeline as a btsnoop capture of real HCI events.
struct Timeline {
    static let start = Timestamp(rfc3339: "2025-01-01T09:00:00Z")!
    static let uuid = UUID(uuidString: "74278BDA-B644-4520-8F0C-720EAF059935")!

    /// Present intervals, `[from, to)` in seconds.
    var present: [(Double, Double)]
    var every = 0.5
    var minor: UInt16 = 1

    var beacon: BeaconID { .iBeacon(uuid: Self.uuid, major: 1, minor: minor) }

    /// Seconds from the start at which the beacon advertises.
    var times: [Double] {
        present.flatMap { from, to in stride(from: from, to: to, by: every).map { $0 } }
    }

    func time(_ seconds: Double) -> Timestamp { Self.start + .milliseconds(Int64((seconds * 1000).rounded())) }

    var sightings: [BeaconSighting] {
        times.map { second in
            BeaconSighting(
                timestamp: time(second), id: beacon, address: BluetoothAddress(rawValue: 0xA4C1_3800_0000 + UInt64(minor)),
                rssi: -60, measuredPower: -59)
        }
    }

    /// An HCI LE Advertising Report event (H4, legacy ADV_NONCONN_IND) carrying the iBeacon.
    var h4Packet: [UInt8] { Self.h4Packet(for: beacon, rssi: -60, measuredPower: -59) }

    /// An HCI LE Advertising Report event (H4, legacy ADV_NONCONN_IND) carrying an iBeacon.
    static func h4Packet(for id: BeaconID, rssi: Int8, measuredPower: Int8) -> [UInt8] {
        let uuid = withUnsafeBytes(of: id.uuid.uuid) { Array($0) }
        let ad: [UInt8] =
            [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + uuid
            + [
                UInt8(id.major >> 8), UInt8(id.major & 0xFF), UInt8(id.minor >> 8), UInt8(id.minor & 0xFF),
                UInt8(bitPattern: measuredPower),
            ]
        let address: [UInt8] = [UInt8(id.minor & 0xFF), 0x00, 0x00, 0x38, 0xC1, 0xA4]
        let report: [UInt8] = [0x02, 0x01, 0x03, 0x00] + address + [UInt8(ad.count)] + ad + [UInt8(bitPattern: rssi)]
        return [0x04, 0x3E, UInt8(report.count)] + report
    }

    /// An HCI event of another kind (Command Complete for a no-op), for a capture whose clock
    /// moves while the beacon is away.
    static let otherPacket: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x00, 0x00, 0x00]

    /// Writes the timeline as a btsnoop capture (Linux monitor datalink, as `btmon -w` does);
    /// with `clockEvery`, an unrelated HCI event every that many seconds up to `until`.
    func writeCapture(to path: String, clockEvery: Double? = nil, until: Double = 0) throws {
        let writer = try BtsnoopFileWriter(path: path)
        var stamps = times.map { ($0, h4Packet) }
        if let clockEvery {
            stamps += stride(from: 0, to: until, by: clockEvery).map { ($0 + 0.25, Self.otherPacket) }
        }
        stamps.sort { $0.0 < $1.0 }
        for (second, packet) in stamps {
            try packet.withUnsafeBytes { bytes in
                try writer.append(h4Packet: bytes, direction: .received, timestamp: time(second))
            }
        }
        try writer.close()
    }
}
