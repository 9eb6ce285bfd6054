/// One AD structure (`length type data…`): a view into advertising data.
public struct ADStructure {
    /// The AD type.
    public let type: ADType
    /// The bytes after the type byte (`length − 1` of them).
    public let data: UnsafeRawBufferPointer
    /// Offset of the length byte in the advertising data.
    public let offset: Int

    /// Creates a view.
    @inlinable
    public init(type: ADType, data: UnsafeRawBufferPointer, offset: Int) {
        self.type = type
        self.data = data
        self.offset = offset
    }
}
