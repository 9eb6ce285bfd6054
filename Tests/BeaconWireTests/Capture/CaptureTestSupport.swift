import BeaconCore

@testable import BeaconWire

/// Walks a capture the way a test needs: records as copies, errors as values.
struct CaptureWalk {
    var records: [(index: Int, offset: Int, nanoseconds: Int64, linkType: UInt32, bytes: [UInt8])] = []
    var errors: [CaptureError] = []

    init(_ file: CaptureFile) {
        file.forEachItem { item in
            switch item {
            case .record(let record):
                records.append(
                    (
                        record.index, record.offset, record.timestamp.nanosecondsSinceEpoch,
                        record.linkType.rawValue, Array(record.bytes)
                    ))
            case .error(let error):
                errors.append(error)
            }
        }
    }

    init(bytes: [UInt8]) throws {
        self.init(try CaptureFile(bytes: bytes))
    }
}

/// Byte-level helpers for building and corrupting fixtures, written apart from the readers.
enum FixtureBytes {
    /// The offsets of the btsnoop records of `file` (24-byte big-endian headers from offset 16).
    static func btsnoopRecordOffsets(_ file: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var offset = 16
        while offset + 24 <= file.count {
            offsets.append(offset)
            offset += 24 + Int(bigEndianUInt32(file, offset + 4))
        }
        return offsets
    }

    /// The offsets and types of the pcapng blocks of a little-endian `file`.
    static func pcapngBlocks(_ file: [UInt8]) -> [(offset: Int, type: UInt32, length: Int)] {
        var blocks: [(Int, UInt32, Int)] = []
        var offset = 0
        while offset + 12 <= file.count {
            let length = Int(littleEndianUInt32(file, offset + 4))
            blocks.append((offset, littleEndianUInt32(file, offset), length))
            offset += length
        }
        return blocks
    }

    /// The packet bytes of the Enhanced Packet Blocks of a little-endian pcapng `file`, with their
    /// 64-bit timestamps.
    static func enhancedPackets(_ file: [UInt8]) -> [(units: UInt64, bytes: [UInt8])] {
        pcapngBlocks(file).filter { $0.type == 6 }.map { block in
            let units =
                UInt64(littleEndianUInt32(file, block.offset + 12)) << 32
                | UInt64(littleEndianUInt32(file, block.offset + 16))
            let captured = Int(littleEndianUInt32(file, block.offset + 20))
            return (units, Array(file[(block.offset + 28)..<(block.offset + 28 + captured)]))
        }
    }

    static func bigEndianUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func littleEndianUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func put(bigEndian value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> UInt32(8 * (3 - i))) }
    }

    static func put(littleEndian value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> UInt32(8 * i)) }
    }

    static func appendBigEndian(_ value: UInt64, bytes count: Int, to out: inout [UInt8]) {
        for i in stride(from: count - 1, through: 0, by: -1) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * i))) }
    }

    static func appendLittleEndian(_ value: UInt64, bytes count: Int, to out: inout [UInt8]) {
        for i in 0..<count { out.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * i))) }
    }
}
