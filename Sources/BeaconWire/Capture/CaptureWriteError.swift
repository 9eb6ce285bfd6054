/// Why a packet or a capture file could not be written.
public struct CaptureWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The file could not be opened, read or written (the detail has the system's reason).
        case io
        /// The file exists and is not a btsnoop file of the writer's datalink; nothing was appended.
        case incompatibleFile
        /// The packet is empty or its H4 type byte cannot be recorded in this datalink
        /// (btsnoop 1001 has no SCO or ISO; unknown type bytes never can).
        case unsupportedPacket
    }

    /// What is wrong.
    public let kind: Kind
    /// The path or packet concerned and the reason.
    public let detail: String

    /// Creates a value.
    public init(_ kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String {
        switch kind {
        case .io: "cannot write the capture: \(detail); check the path, its permissions and free space"
        case .incompatibleFile: "cannot append: \(detail); choose a new file or one written with the same datalink"
        case .unsupportedPacket: "cannot record packet: \(detail)"
        }
    }
}
