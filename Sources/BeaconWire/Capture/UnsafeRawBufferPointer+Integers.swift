extension UnsafeRawBufferPointer {
    /// The big-endian `UInt16` at `offset`; the caller guarantees `offset + 2 <= count`.
    @inlinable
    func bigEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) << 8 | UInt16(self[offset + 1])
    }

    /// The little-endian `UInt16` at `offset`; the caller guarantees `offset + 2 <= count`.
    @inlinable
    func littleEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset + 1]) << 8 | UInt16(self[offset])
    }

    /// The big-endian `UInt32` at `offset`; the caller guarantees `offset + 4 <= count`.
    @inlinable
    func bigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(bigEndianUInt16(at: offset)) << 16 | UInt32(bigEndianUInt16(at: offset + 2))
    }

    /// The little-endian `UInt32` at `offset`; the caller guarantees `offset + 4 <= count`.
    @inlinable
    func littleEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(littleEndianUInt16(at: offset + 2)) << 16 | UInt32(littleEndianUInt16(at: offset))
    }

    /// The `UInt32` at `offset` in the given byte order.
    @inlinable
    func uint32(at offset: Int, bigEndian: Bool) -> UInt32 {
        bigEndian ? bigEndianUInt32(at: offset) : littleEndianUInt32(at: offset)
    }

    /// The `UInt16` at `offset` in the given byte order.
    @inlinable
    func uint16(at offset: Int, bigEndian: Bool) -> UInt16 {
        bigEndian ? bigEndianUInt16(at: offset) : littleEndianUInt16(at: offset)
    }

    /// The big-endian `UInt64` at `offset`; the caller guarantees `offset + 8 <= count`.
    @inlinable
    func bigEndianUInt64(at offset: Int) -> UInt64 {
        UInt64(bigEndianUInt32(at: offset)) << 32 | UInt64(bigEndianUInt32(at: offset + 4))
    }

    /// The bytes in `range`, clamped to the buffer, as a rebased view.
    @inlinable
    func clampedSlice(from start: Int, count: Int) -> UnsafeRawBufferPointer {
        let lower = Swift.min(Swift.max(start, 0), self.count)
        let upper = Swift.min(self.count, lower + Swift.max(count, 0))
        return UnsafeRawBufferPointer(rebasing: self[lower..<upper])
    }
}
