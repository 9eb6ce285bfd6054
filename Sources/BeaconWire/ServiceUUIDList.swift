import FoundationEssentials

/// A list of 16-, 32- or 128-bit service UUIDs (AD types 0x02–0x07): a view into AD data.
/// UUIDs are little-endian on the wire.
public struct ServiceUUIDList {
    /// Bytes per UUID: 2, 4 or 16.
    public let width: Int
    /// True for the "complete list" AD types.
    public let isComplete: Bool
    /// The raw list bytes.
    public let bytes: UnsafeRawBufferPointer

    /// Creates a view; a trailing partial UUID is ignored.
    @inlinable
    public init(width: Int, isComplete: Bool, bytes: UnsafeRawBufferPointer) {
        self.width = width
        self.isComplete = isComplete
        self.bytes = bytes
    }

    /// Number of whole UUIDs in the list.
    @inlinable
    public var count: Int { bytes.count / width }

    /// The `index`th UUID as an integer (16- and 32-bit lists).
    @inlinable
    public func shortUUID(at index: Int) -> UInt32 {
        precondition(width <= 4 && index >= 0 && index < count, "shortUUID(at:) needs a 16- or 32-bit list and a valid index")
        var value: UInt32 = 0
        for i in (0..<width).reversed() { value = value << 8 | UInt32(bytes[index * width + i]) }
        return value
    }

    /// The `index`th UUID as a full UUID (16- and 32-bit values are placed in the Bluetooth base UUID).
    public func uuid(at index: Int) -> UUID {
        precondition(index >= 0 && index < count, "uuid(at:) index out of range")
        if width == 16 {
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &value) { out in
                for i in 0..<16 { out[i] = bytes[index * 16 + 15 - i] }
            }
            return UUID(uuid: value)
        }
        // Bluetooth base UUID 0000xxxx-0000-1000-8000-00805F9B34FB.
        let high = UInt64(shortUUID(at: index)) << 32 | 0x0000_1000
        return UUID(bigEndianWords: high, 0x8000_0080_5F9B_34FB)
    }
}
