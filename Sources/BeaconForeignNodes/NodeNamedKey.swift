/// The identity resolving key a foreign node names a device by (ESPresense publishes a device it
/// resolved as `irk:<the key in hex>`): 16 bytes as the node wrote them. Its description never
/// shows them, so that a logged payload does not leak the key.
public struct NodeNamedKey: Hashable, Sendable, CustomStringConvertible {
    /// The bytes, in the order the node wrote them.
    public let bytes: [UInt8]

    /// The key of 32 hex digits; `nil` for anything else.
    init?(hex: Substring) {
        guard hex.utf8.count == 32, let bytes = ForeignValues.hexBytes(String(hex)), bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    public var description: String { "NodeNamedKey(16 bytes)" }
}
