import BeaconCore
import Foundation

/// HCI packets built from the specifications (Bluetooth Core Vol 4 Part E 7.7.65.2, Apple's
/// iBeacon frame), not from the code under test: what tests feed the pipeline.
public enum HCIReportBuilder {
    /// One HCI LE Advertising Report event (H4 framing) carrying an iBeacon frame
    /// (ADV_NONCONN_IND, public address `A4:C1:38:00:00:<minor>`, measured power -59 dBm).
    public static func iBeacon(uuid: UUID, major: UInt16 = 1, minor: UInt16, rssi: Int8 = -60) -> [UInt8] {
        var ad: [UInt8] = [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]
        withUnsafeBytes(of: uuid.uuid) { ad += $0 }
        ad += [UInt8(major >> 8), UInt8(major & 0xFF), UInt8(minor >> 8), UInt8(minor & 0xFF), 0xC5]
        var report: [UInt8] = [0x02, 0x01, 0x03, 0x00, UInt8(minor & 0xFF), 0x00, 0x00, 0x38, 0xC1, 0xA4]
        report.append(UInt8(ad.count))
        report += ad
        report.append(UInt8(bitPattern: rssi))
        return [0x04, 0x3E, UInt8(report.count)] + report
    }

    /// A batch of one iBeacon report per (time, minor).
    public static func batch(uuid: UUID, _ sightings: [(time: Timestamp, minor: UInt16)]) -> PacketBatch {
        var batch = PacketBatch()
        for sighting in sightings { batch.append(iBeacon(uuid: uuid, minor: sighting.minor), timestamp: sighting.time) }
        return batch
    }
}
