import BeaconCore
import Testing

@testable import BeaconWire

@Suite("PcapngReader: blocks, byte orders, resolutions and bad input")
struct PcapngReaderTests {
    static let capture = "bostonmesh_hackrf_take2_ble_all_adv.pcap" // pcapng inside, 221 packets

    /// Two nRF Sniffer packets (frames 1 and 2 of the mitll capture) in a big-endian pcapng
    /// written here from the pcapng specification: SHB, IDB (272, if_tsresol 9 = ns), a block of
    /// an unknown type, an EPB and an SPB.
    static func bigEndianFile() throws -> (file: [UInt8], packets: [[UInt8]]) {
        let packets = FixtureBytes.enhancedPackets(try CaptureFixtures.bytes("mitll_anechoic_nrf52_0deg.pcapng"))
        var out: [UInt8] = []
        func put(_ value: UInt64, _ count: Int) { FixtureBytes.appendBigEndian(value, bytes: count, to: &out) }
        func pad(_ count: Int) { out += [UInt8](repeating: 0, count: (4 - count % 4) % 4) }
        put(0x0A0D_0D0A, 4)
        put(28, 4)
        put(0x1A2B_3C4D, 4)
        put(1, 2)
        put(0, 2)
        put(UInt64.max, 8)
        put(28, 4) // SHB
        put(1, 4)
        put(32, 4)
        put(272, 2)
        put(0, 2)
        put(0, 4) // IDB
        put(9, 2)
        put(1, 2)
        out += [9, 0, 0, 0]
        put(0, 4)
        put(32, 4) // if_tsresol 9, end
        put(0x0000_0BAD, 4)
        put(16, 4)
        put(0xDEAD_BEEF, 4)
        put(16, 4) // unknown block
        let first = packets[0].bytes
        let epbLength = 32 + first.count + (4 - first.count % 4) % 4
        put(6, 4)
        put(UInt64(epbLength), 4)
        put(0, 4) // EPB, interface 0
        put(0x1234, 4)
        put(0x5678_9ABC, 4)
        put(UInt64(first.count), 4)
        put(UInt64(first.count), 4)
        out += first
        pad(first.count)
        put(UInt64(epbLength), 4)
        let second = packets[1].bytes
        let spbLength = 16 + second.count + (4 - second.count % 4) % 4
        put(3, 4)
        put(UInt64(spbLength), 4)
        put(UInt64(second.count), 4)
        out += second
        pad(second.count) // SPB
        put(UInt64(spbLength), 4)
        return (out, [first, second])
    }

    @Test("big-endian sections, if_tsresol, SPB and unknown blocks")
    func bigEndian() throws {
        let (file, packets) = try Self.bigEndianFile()
        let walk = try CaptureWalk(bytes: file)
        #expect(walk.errors.isEmpty)
        #expect(walk.records.map(\.bytes) == packets)
        #expect(walk.records.map(\.linkType) == [272, 272])
        // 0x00001234_56789ABC ns; the SPB repeats the previous timestamp.
        #expect(walk.records.map(\.nanoseconds) == [0x1234_5678_9ABC, 0x1234_5678_9ABC])
    }

    @Test("the shared capture: every packet block in order, with the IDB's microsecond timestamps")
    func sharedCapture() throws {
        let bytes = try CaptureFixtures.bytes(Self.capture)
        let walk = try CaptureWalk(bytes: bytes)
        let expected = FixtureBytes.enhancedPackets(bytes)
        #expect(walk.errors.isEmpty)
        #expect(walk.records.count == 221)
        #expect(walk.records.map(\.bytes) == expected.map(\.bytes))
        #expect(walk.records.map(\.nanoseconds) == expected.map { Int64($0.units) * 1_000 })
    }

    @Test("a cut block ends the file with an error; records before it are kept")
    func truncated() throws {
        let bytes = try CaptureFixtures.bytes(Self.capture)
        let blocks = FixtureBytes.pcapngBlocks(bytes).filter { $0.type == 6 }
        let walk = try CaptureWalk(bytes: Array(bytes[0..<(blocks[150].offset + 30)]))
        #expect(walk.records.count == 150)
        #expect(walk.errors.map(\.kind) == [.truncated])
        #expect(walk.errors.first?.offset == blocks[150].offset)
        #expect(walk.errors.first?.recordIndex == 150)
    }

    @Test(
        "a block whose lengths disagree is reported and reading resumes at the next block",
        arguments: ["length not a multiple of 4", "length whose trailing copy differs", "garbage"])
    func resynchronises(corruption: String) throws {
        var bytes = try CaptureFixtures.bytes(Self.capture)
        let blocks = FixtureBytes.pcapngBlocks(bytes).filter { $0.type == 6 }
        let bad = blocks[80].offset
        if corruption == "garbage" {
            for i in 0..<12 { bytes[bad + i] = 0x5A }
        } else if corruption == "length not a multiple of 4" {
            FixtureBytes.put(littleEndian: UInt32(blocks[80].length + 2), at: bad + 4, in: &bytes)
        } else {
            FixtureBytes.put(littleEndian: UInt32(blocks[80].length + 400), at: bad + 4, in: &bytes)
        }
        let walk = try CaptureWalk(bytes: bytes)
        #expect(walk.errors.map(\.kind) == [.badLength])
        #expect(walk.errors.first?.offset == bad)
        #expect(walk.records.count == 220)
        #expect(walk.records[80].offset == blocks[81].offset)
    }

    @Test("packets on a non-Bluetooth interface or an undeclared one are errors, one per packet")
    func interfaces() throws {
        var bytes = try CaptureFixtures.bytes(Self.capture)
        let blocks = FixtureBytes.pcapngBlocks(bytes)
        let idb = try #require(blocks.first { $0.type == 1 })
        var ethernet = bytes
        ethernet[idb.offset + 8] = 1 // LINKTYPE_ETHERNET
        let ethernetWalk = try CaptureWalk(bytes: ethernet)
        #expect(ethernetWalk.records.isEmpty)
        #expect(ethernetWalk.errors.count == 221)
        #expect(Set(ethernetWalk.errors.map(\.kind)) == [.unsupportedLinkType])

        let epb = blocks.filter { $0.type == 6 }[10]
        FixtureBytes.put(littleEndian: 5, at: epb.offset + 8, in: &bytes)
        let walk = try CaptureWalk(bytes: bytes)
        #expect(walk.records.count == 220)
        #expect(walk.errors.map(\.kind) == [.unknownInterface])
        #expect(walk.errors.first?.offset == epb.offset)
    }

    @Test("a bad byte-order magic or version is a file-level error")
    func badSectionHeader() throws {
        var bytes = try CaptureFixtures.bytes(Self.capture)
        bytes[8] = 0
        #expect { _ = try CaptureFile(bytes: bytes) } throws: { ($0 as? CaptureError)?.kind == .badMagic }
        bytes = try CaptureFixtures.bytes(Self.capture)
        bytes[12] = 2
        #expect { _ = try CaptureFile(bytes: bytes) } throws: { ($0 as? CaptureError)?.kind == .unsupportedVersion }
    }
}
