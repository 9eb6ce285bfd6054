// Byte-order reads used by the capture readers, beside the big-endian ones of `ByteReading.swift`.
// Callers check the bounds first.
extension UnsafeRawBufferPointer {
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

    /// `count` bytes from `start`, clamped to the buffer, as a rebased view.
    @inlinable
    func clampedSlice(from start: Int, count: Int) -> UnsafeRawBufferPointer {
        let lower = Swift.min(Swift.max(start, 0), self.count)
        let upper = Swift.min(self.count, lower + Swift.max(count, 0))
        return UnsafeRawBufferPointer(rebasing: self[lower..<upper])
    }
}
