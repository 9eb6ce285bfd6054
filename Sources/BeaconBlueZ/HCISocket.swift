/// An open HCI socket: a file descriptor handed out by an ``HCITransport``.
///
/// Only the transport that opened it knows what the descriptor refers to (a raw HCI socket, one
/// end of a socket pair, or nothing at all for a fake).
public struct HCISocket: Hashable, Sendable, CustomStringConvertible {
    /// The file descriptor (or a fake's handle).
    public let descriptor: Int32

    /// Wraps a descriptor.
    public init(descriptor: Int32) { self.descriptor = descriptor }

    /// `fd N`.
    public var description: String { "fd \(descriptor)" }
}
