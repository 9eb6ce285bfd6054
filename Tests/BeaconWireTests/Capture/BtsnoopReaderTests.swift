import BeaconCore
import Testing

@testable import BeaconWire

@Suite("BtsnoopReader: datalinks, timestamps and bad input")
struct BtsnoopReaderTests {
    static let synthetic = "hci_2k_seed1.btsnoop"

    @Test("the first records of the synthetic H4 file: offsets, timestamps, bytes")
    func firstRecords() throws {
        let walk = CaptureWalk(try CaptureFile(path: CaptureFixtures.path(Self.synthetic)))
        #expect(walk.errors.isEmpty)
        #expect(walk.records.count == 2000)
        // Hand-read from the file: record 0 at offset 16 (46 bytes, flags 3, timestamp
        // 0x00e3084cc93be08e = 2025-01-01T00:00:00.000142Z), record 1 at 16 + 24 + 46 = 86.
        let first = walk.records[0]
        #expect(first.offset == 16)
        #expect(first.nanoseconds == 1_735_689_600_000_142_000)
        #expect(first.linkType == LinkType.hciH4.rawValue)
        #expect(first.bytes.prefix(8) == [0x04, 0x3E, 0x2B, 0x02, 0x01, 0x03, 0x01, 0xA8])
        #expect(first.bytes.count == 46)
        #expect(walk.records[1].offset == 86)
        #expect(walk.records[1].nanoseconds == 1_735_689_600_000_256_000)
    }

    @Test("H1 (1001) records get their H4 type byte from the flags")
    func unencapsulated() throws {
        var file: [UInt8] = Array("btsnoop".utf8) + [0, 0, 0, 0, 1, 0, 0, 0x03, 0xE9] // version 1, datalink 1001
        func record(flags: UInt32, _ payload: [UInt8]) {
            FixtureBytes.appendBigEndian(UInt64(payload.count), bytes: 4, to: &file) // original length
            FixtureBytes.appendBigEndian(UInt64(payload.count), bytes: 4, to: &file) // included length
            FixtureBytes.appendBigEndian(UInt64(flags), bytes: 4, to: &file) // flags
            FixtureBytes.appendBigEndian(0, bytes: 4, to: &file) // drops
            FixtureBytes.appendBigEndian(0x00dc_ddb3_0f2f_8000 + 1_000_000, bytes: 8, to: &file) // 1970-01-01T00:00:01Z
            file += payload
        }
        record(flags: 2, [0x0C, 0x20, 0x02, 0x01, 0x00]) // command sent: LE Set Scan Enable
        record(flags: 3, [0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00]) // event received: Command Complete
        record(flags: 1, [0x01, 0x20, 0x00, 0x00]) // ACL received
        let walk = try CaptureWalk(bytes: file)
        #expect(walk.errors.isEmpty)
        #expect(
            walk.records.map(\.bytes) == [
                [0x01, 0x0C, 0x20, 0x02, 0x01, 0x00],
                [0x04, 0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00],
                [0x02, 0x01, 0x20, 0x00, 0x00],
            ])
        #expect(walk.records.allSatisfy { $0.nanoseconds == 1_000_000_000 })
    }

    @Test("a file cut inside a record keeps the records before it and reports where")
    func truncated() throws {
        let bytes = try CaptureFixtures.bytes(Self.synthetic)
        let offsets = FixtureBytes.btsnoopRecordOffsets(bytes)
        for cut in [offsets[2] + 10, offsets[2] + 24 + 5] {
            let walk = try CaptureWalk(bytes: Array(bytes[0..<cut]))
            #expect(walk.records.count == 2)
            #expect(walk.errors.count == 1)
            #expect(walk.errors.first?.kind == .truncated)
            #expect(walk.errors.first?.offset == offsets[2])
            #expect(walk.errors.first?.recordIndex == 2)
            #expect(walk.errors.first?.bytes.first == bytes[offsets[2]])
        }
    }

    @Test("a last record whose length runs past the end of the file ends the file with an error")
    func lengthPastEndOfFile() throws {
        var bytes = try CaptureFixtures.bytes(Self.synthetic)
        let last = FixtureBytes.btsnoopRecordOffsets(bytes).last!
        FixtureBytes.put(bigEndian: 4000, at: last, in: &bytes)
        FixtureBytes.put(bigEndian: 4000, at: last + 4, in: &bytes)
        let walk = try CaptureWalk(bytes: bytes)
        #expect(walk.records.count == 1999)
        #expect(walk.errors.map(\.kind) == [.truncated])
        #expect(walk.errors.first?.offset == last)
        #expect(walk.errors.first?.bytes == [0, 0, 0x0F, 0xA0, 0, 0, 0x0F, 0xA0] + Array(bytes[(last + 8)..<(last + 16)]))
    }

    @Test(
        "a lying length or a garbage header is reported and reading resumes at the next record",
        arguments: ["included > original", "garbage header"])
    func resynchronises(corruption: String) throws {
        var bytes = try CaptureFixtures.bytes(Self.synthetic)
        let offsets = FixtureBytes.btsnoopRecordOffsets(bytes)
        let bad = offsets[500]
        if corruption == "garbage header" {
            for i in 0..<24 { bytes[bad + i] = 0xFF }
        } else {
            FixtureBytes.put(bigEndian: 9_999, at: bad + 4, in: &bytes)
        }
        let walk = try CaptureWalk(bytes: bytes)
        #expect(walk.errors.map(\.kind) == [.badLength])
        #expect(walk.errors.first?.offset == bad)
        #expect(walk.errors.first?.recordIndex == 500)
        #expect(walk.records.count == 1999)
        #expect(walk.records[499].offset == offsets[499])
        #expect(walk.records[500].offset == offsets[501])
        #expect(walk.records.last?.offset == offsets.last)
    }

    @Test(
        "file-level problems give one clear error",
        arguments: [
            ("unknown datalink", 12, CaptureError.Kind.unknownDatalink),
            ("version 2", 8, CaptureError.Kind.unsupportedVersion),
            ("bad magic", 0, CaptureError.Kind.badMagic),
        ])
    func fileLevel(name: String, offset: Int, kind: CaptureError.Kind) throws {
        var bytes = try CaptureFixtures.bytes(Self.synthetic)
        switch kind {
        case .unknownDatalink: FixtureBytes.put(bigEndian: 1003, at: 12, in: &bytes)
        case .unsupportedVersion: FixtureBytes.put(bigEndian: 2, at: 8, in: &bytes)
        default: bytes[0] = UInt8(ascii: "B")
        }
        #expect {
            _ = try CaptureFile(bytes: bytes)
        } throws: { error in
            guard let error = error as? CaptureError else { return false }
            return error.kind == kind && error.offset == offset && error.isFileLevel && error.recordIndex == nil
        }
    }

    @Test("missing files, directories and empty files cannot be read")
    func unreadable() throws {
        #expect(throws: CaptureError.self) { try CaptureFile(path: "/nonexistent/beacond/capture.btsnoop") }
        do {
            _ = try CaptureFile(path: "/nonexistent/beacond/capture.btsnoop")
        } catch {
            #expect(error.kind == .unreadableFile)
            #expect(error.description.contains("No such file or directory"))
        }
        do {
            _ = try CaptureFile(path: "/tmp")
            Issue.record("a directory was read")
        } catch {
            #expect(error.kind == .unreadableFile)
        }
        #expect(throws: CaptureError.self) { try CaptureFile(bytes: []) }
    }

    @Test("a file with only its header has no records and no errors")
    func headerOnly() throws {
        let bytes = try CaptureFixtures.bytes(Self.synthetic)
        let walk = try CaptureWalk(bytes: Array(bytes[0..<16]))
        #expect(walk.records.isEmpty)
        #expect(walk.errors.isEmpty)
    }
}
