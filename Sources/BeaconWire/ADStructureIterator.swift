/// Walks the AD structures of advertising data without allocating.
///
/// Each structure is a length byte `n`, then `n` bytes: the AD type and `n − 1` data bytes. A
/// zero length ends the data (the rest is padding). A length that runs past the end throws
/// ``WireError/Kind/truncatedADStructure`` (offset of the length byte); the structures returned
/// before it stay valid, and the iterator is then finished.
public struct ADStructureIterator {
    @usableFromInline let bytes: UnsafeRawBufferPointer
    @usableFromInline var position: Int

    /// Prepares to walk `advertisingData`.
    @inlinable
    public init(_ advertisingData: UnsafeRawBufferPointer) {
        bytes = advertisingData
        position = 0
    }

    /// The next structure, or `nil` at the end (or at a zero length byte).
    @inlinable @inline(__always)
    public mutating func next() throws(WireError) -> ADStructure? {
        // 0 <= p <= count: the arithmetic below cannot wrap, and `count &- p > length` proves
        // that bytes p ... p + length are in the data.
        let p = position
        let count = bytes.count
        guard p < count else { return nil }
        let length = Int(bytes.byte(at: p))
        guard length > 0 else {
            position = count
            return nil
        }
        guard count &- p > length else {
            position = count
            throw Self.truncated(at: p, in: bytes)
        }
        position = p &+ 1 &+ length
        return ADStructure(
            type: ADType(rawValue: bytes.byte(at: p &+ 1)),
            data: bytes.unsafeSlice(from: p &+ 2, count: length &- 1), offset: p)
    }

    @usableFromInline
    static func truncated(at offset: Int, in bytes: UnsafeRawBufferPointer) -> WireError {
        WireError(.truncatedADStructure, at: offset, in: bytes)
    }
}
