/// One framed H4 packet: a borrowed view of its bytes, valid only during the callback that
/// receives it.
public struct H4Packet {
    /// The packet type (the first byte).
    public let type: H4PacketType
    /// The whole packet, starting at the H4 type byte.
    public let bytes: UnsafeRawBufferPointer
    /// Offset of the type byte in the stream fed to the framer.
    public let streamOffset: Int

    /// Creates a packet view.
    @inlinable
    public init(type: H4PacketType, bytes: UnsafeRawBufferPointer, streamOffset: Int) {
        self.type = type
        self.bytes = bytes
        self.streamOffset = streamOffset
    }
}
