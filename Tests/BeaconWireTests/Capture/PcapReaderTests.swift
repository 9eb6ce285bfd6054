import BeaconCore
import Testing

@testable import BeaconWire

@Suite("PcapReader: byte orders, resolutions, link types and bad input")
struct PcapReaderTests {
    /// A pcap file of the nRF Sniffer packets of the mitll pcapng capture, written here from the
    /// pcap format description (tcpdump.org pcap-savefile), in the byte order and resolution asked.
    static func pcap(bigEndian: Bool, nanosecond: Bool, linkType: UInt32 = 272) throws -> [UInt8] {
        let packets = FixtureBytes.enhancedPackets(try CaptureFixtures.bytes("mitll_anechoic_nrf52_0deg.pcapng"))
        var out: [UInt8] = []
        func put(_ value: UInt64, _ count: Int) {
            if bigEndian {
                FixtureBytes.appendBigEndian(value, bytes: count, to: &out)
            } else {
                FixtureBytes.appendLittleEndian(value, bytes: count, to: &out)
            }
        }
        put(nanosecond ? 0xA1B2_3C4D : 0xA1B2_C3D4, 4) // magic
        put(2, 2)
        put(4, 2) // version 2.4
        put(0, 4)
        put(0, 4) // thiszone, sigfigs
        put(65_535, 4) // snaplen
        put(UInt64(linkType), 4) // LINKTYPE_NORDIC_BLE
        for packet in packets { // pcapng units are microseconds (no if_tsresol)
            put(packet.units / 1_000_000, 4)
            put(nanosecond ? packet.units % 1_000_000 * 1_000 : packet.units % 1_000_000, 4)
            put(UInt64(packet.bytes.count), 4)
            put(UInt64(packet.bytes.count), 4)
            out += packet.bytes
        }
        return out
    }

    @Test(
        "the same packets in pcap give the oracle's reports in every byte order and resolution",
        arguments: [(false, false), (true, false), (false, true), (true, true)])
    func agreesWithOracle(bigEndian: Bool, nanosecond: Bool) throws {
        let file = try CaptureFile(bytes: Self.pcap(bigEndian: bigEndian, nanosecond: nanosecond))
        #expect(file.format == .pcap(.nordicBLE))
        let oracle = try OracleRow.load("mitll_anechoic_nrf52_0deg.pcapng.tshark.csv")
        var seen: [SeenReport] = []
        let summary = CaptureDecoder().decode(file) { item in
            if case .advertisement(let advertisement) = item { seen.append(SeenReport(advertisement)) }
        }
        #expect(summary.errorCount == 0)
        #expect(seen.count == oracle.count)
        for (report, row) in zip(seen, oracle) {
            let time = row["time_epoch"].split(separator: ".")
            #expect(report.frame == Int(row["frame"])!)
            #expect(report.nanoseconds == (Int64(time[0])! * 1_000_000 + Int64(time[1])!) * 1_000)
            #expect(report.address.description == row["address"])
            #expect(report.rssi == Int8(row["rssi"])!)
        }
    }

    @Test("HCI H4 with a direction header (201) is given as H4 with its direction")
    func hciWithDirection() throws {
        var file: [UInt8] = [
            0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, // LE magic, 2.4
            0xFF, 0xFF, 0, 0, 201, 0, 0, 0,
        ] // snaplen, linktype 201
        let event: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00] // Command Complete
        file += [10, 0, 0, 0, 0x40, 0xE2, 0x01, 0x00, 11, 0, 0, 0, 11, 0, 0, 0] // 10 s + 123 456 µs, 11 bytes
        file += [0, 0, 0, 1] + event // direction 1: received
        let walk = try CaptureWalk(bytes: file)
        #expect(walk.errors.isEmpty)
        #expect(walk.records.count == 1)
        #expect(walk.records.first?.bytes == event)
        #expect(walk.records.first?.linkType == LinkType.hciH4.rawValue)
        #expect(walk.records.first?.nanoseconds == 10_123_456_000)
        try CaptureFile(bytes: file).forEachItem { item in
            if case .record(let record) = item { #expect(record.direction == .received) }
        }
    }

    @Test("bad records: cut file, length past the end, lying length with resync")
    func badRecords() throws {
        let good = try Self.pcap(bigEndian: false, nanosecond: false)
        // Record offsets, from the 16-byte record headers after the 24-byte file header.
        var offsets: [Int] = []
        var offset = 24
        while offset < good.count {
            offsets.append(offset)
            offset += 16 + Int(FixtureBytes.littleEndianUInt32(good, offset + 8))
        }
        #expect(offsets.count == 832)

        let cut = try CaptureWalk(bytes: Array(good[0..<(offsets[100] + 20)]))
        #expect(cut.records.count == 100)
        #expect(cut.errors.map(\.kind) == [.truncated])
        #expect(cut.errors.first?.offset == offsets[100])

        var pastEnd = good
        FixtureBytes.put(littleEndian: 60_000, at: offsets[831] + 8, in: &pastEnd)
        FixtureBytes.put(littleEndian: 60_000, at: offsets[831] + 12, in: &pastEnd)
        let pastEndWalk = try CaptureWalk(bytes: pastEnd)
        #expect(pastEndWalk.records.count == 831)
        #expect(pastEndWalk.errors.map(\.kind) == [.truncated])
        #expect(pastEndWalk.errors.first?.offset == offsets[831])

        var lying = good
        FixtureBytes.put(littleEndian: 70, at: offsets[300] + 8, in: &lying) // captured 70 > original
        let lyingWalk = try CaptureWalk(bytes: lying)
        #expect(lyingWalk.errors.map(\.kind) == [.badLength])
        #expect(lyingWalk.errors.first?.offset == offsets[300])
        #expect(lyingWalk.records.count == 831)
        #expect(lyingWalk.records[300].offset == offsets[301])
    }

    @Test("a link type that is not Bluetooth is a file-level error")
    func unsupportedLinkType() throws {
        #expect {
            _ = try CaptureFile(bytes: Self.pcap(bigEndian: true, nanosecond: false, linkType: 1))
        } throws: { error in
            (error as? CaptureError)?.kind == .unsupportedLinkType && (error as? CaptureError)?.offset == 20
        }
    }
}
