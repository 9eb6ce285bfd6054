import BeaconCore
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
        UInt16(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    @inlinable
    func littleEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
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

extension UnsafeRawBufferPointer {
    /// `count` bytes from `start`, without the range checks of slicing. The caller guarantees
    /// `0 <= start`, `start + count <= self.count` and that the buffer is not empty.
    @inlinable @inline(__always)
    func unsafeSlice(from start: Int, count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: baseAddress.unsafelyUnwrapped + start, count: count)
    }

    /// The byte at `offset`, which the caller has checked is in the buffer (no check here, in
    /// any build mode).
    @inlinable @inline(__always)
    func byte(at offset: Int) -> UInt8 {
        baseAddress.unsafelyUnwrapped.load(fromByteOffset: offset, as: UInt8.self)
    }

    /// The little-endian 16-bit word at `offset` (two bytes the caller has checked are there).
    @inlinable @inline(__always)
    func word16(at offset: Int) -> UInt16 {
        UInt16(littleEndian: baseAddress.unsafelyUnwrapped.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    /// The little-endian 32-bit word at `offset` (four bytes the caller has checked are there).
    @inlinable @inline(__always)
    func word32(at offset: Int) -> UInt32 {
        UInt32(littleEndian: baseAddress.unsafelyUnwrapped.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// A Bluetooth address in HCI order (least significant byte first) at `offset`; the caller
    /// guarantees six bytes are there.
    @inlinable @inline(__always)
    func wireAddress(at offset: Int) -> BluetoothAddress {
        let low = UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        let high = UInt16(littleEndian: loadUnaligned(fromByteOffset: offset &+ 4, as: UInt16.self))
        return BluetoothAddress(rawValue: UInt64(high) << 32 | UInt64(low))
    }
}
