import BeaconCore
import Testing

@testable import BeaconWire

@Suite("BtsnoopEncoder: records as btmon and Android write them")
struct BtsnoopEncoderTests {
    /// Re-encodes the records of the synthetic H4 file with `datalink`.
    static func reencode(as datalink: BtsnoopDatalink) throws -> [UInt8] {
        let encoder = BtsnoopEncoder(datalink: datalink)
        var out = encoder.fileHeader
        var failure: CaptureWriteError?
        try CaptureFile(path: CaptureFixtures.path("hci_2k_seed1.btsnoop")).forEachItem { item in
            guard case .record(let record) = item else { return }
            do throws(CaptureWriteError) {
                try encoder.appendRecord(
                    h4Packet: record.bytes, direction: record.direction,
                    timestamp: record.timestamp, to: &out)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return out
    }

    @Test("the synthetic H4 packets re-encoded as monitor (2001) equal the generator's monitor file byte for byte")
    func monitorMatchesGenerator() throws {
        #expect(try Self.reencode(as: .linuxMonitor) == CaptureFixtures.bytes("hci_2k_seed1.monitor.btsnoop"))
    }

    @Test("re-encoding as H4 (1002) reproduces the file")
    func h4RoundTrip() throws {
        #expect(try Self.reencode(as: .hciUART) == CaptureFixtures.bytes("hci_2k_seed1.btsnoop"))
    }

    @Test("H1 (1001) drops the type byte and round-trips through the reader")
    func unencapsulatedRoundTrip() throws {
        let encoded = try Self.reencode(as: .hciUnencapsulated)
        let original = CaptureWalk(try CaptureFile(path: CaptureFixtures.path("hci_2k_seed1.btsnoop")))
        let decoded = try CaptureWalk(bytes: encoded)
        #expect(encoded.count == (try CaptureFixtures.bytes("hci_2k_seed1.btsnoop")).count - 2000)
        #expect(decoded.records.map(\.bytes) == original.records.map(\.bytes))
        #expect(decoded.records.map(\.nanoseconds) == original.records.map(\.nanoseconds))
    }

    @Test("an annotated monitor record: command on controller 1")
    func annotatedMonitorRecord() throws {
        var out: [UInt8] = []
        let command: [UInt8] = [0x01, 0x0C, 0x20, 0x02, 0x01, 0x00] // LE Set Scan Enable (enable)
        try command.withUnsafeBytes {
            try BtsnoopEncoder(datalink: .linuxMonitor).appendRecord(
                h4Packet: $0, direction: .sent, timestamp: Timestamp(nanosecondsSinceEpoch: 1_000),
                controllerIndex: 1, to: &out)
        }
        #expect(
            out == [
                0, 0, 0, 5, // original length: packet without the type byte
                0, 0, 0, 5, // included length
                0, 1, 0, 2, // flags: index 1, opcode 2 (command)
                0, 0, 0, 0, // drops
                0x00, 0xDC, 0xDD, 0xB3, 0x0F, 0x2F, 0x80, 0x00 + 0x01, // 0x00dcddb30f2f8000 + 1 µs
                0x0C, 0x20, 0x02, 0x01, 0x00,
            ])
    }

    @Test(
        "packets a datalink cannot carry are refused",
        arguments: [
            (BtsnoopDatalink.hciUnencapsulated, [UInt8]([0x03, 0x01, 0x00, 0x00])), // SCO in H1
            (BtsnoopDatalink.linuxMonitor, [UInt8]([0x07, 0x00])), // unknown type
            (BtsnoopDatalink.hciUART, [UInt8]()), // empty
        ])
    func refused(datalink: BtsnoopDatalink, packet: [UInt8]) {
        var out: [UInt8] = []
        #expect(throws: CaptureWriteError.self) {
            try packet.withUnsafeBytes {
                try BtsnoopEncoder(datalink: datalink).appendRecord(
                    h4Packet: $0, direction: .received,
                    timestamp: .epoch, to: &out)
            }
        }
        #expect(out.isEmpty)
    }
}
