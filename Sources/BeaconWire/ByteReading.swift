import FoundationEssentials

// Unaligned fixed-width reads used by the decoders. Callers check the bounds first.
extension UnsafeRawBufferPointer {
    @inlinable
    func bigEndianUInt64(at offset: Int) -> UInt64 {
        UInt64(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inlinable
    func bigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inlinable
    func bigEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(truncatingIfNeeded: self[offset]) << 8 | UInt16(truncatingIfNeeded: self[offset + 1])
    }

    @inlinable
    func littleEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(truncatingIfNeeded: self[offset]) | UInt16(truncatingIfNeeded: self[offset + 1]) << 8
    }
}

extension [UInt8] {
    @inlinable
    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    @inlinable
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}

extension UUID {
    /// The 16 bytes (in display order) as two big-endian words.
    @usableFromInline
    var bigEndianWords: (UInt64, UInt64) {
        withUnsafeBytes(of: uuid) { ($0.bigEndianUInt64(at: 0), $0.bigEndianUInt64(at: 8)) }
    }

    /// A UUID from two big-endian words.
    @usableFromInline
    init(bigEndianWords high: UInt64, _ low: UInt64) {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) {
            $0.storeBytes(of: high.bigEndian, toByteOffset: 0, as: UInt64.self)
            $0.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        self.init(uuid: bytes)
    }
}
