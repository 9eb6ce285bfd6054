/// A device name (AD types 0x08 shortened, 0x09 complete): a view into AD data.
public struct LocalName {
    /// True for the complete name (0x09), false for the shortened one (0x08).
    public let isComplete: Bool
    /// The UTF-8 bytes.
    public let bytes: UnsafeRawBufferPointer

    /// Creates a view.
    @inlinable
    public init(isComplete: Bool, bytes: UnsafeRawBufferPointer) {
        self.isComplete = isComplete
        self.bytes = bytes
    }

    /// The name as a string (allocates; invalid UTF-8 is repaired with U+FFFD).
    public var string: String { String(decoding: bytes, as: UTF8.self) }
}
