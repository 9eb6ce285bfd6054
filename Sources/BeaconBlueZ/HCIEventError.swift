/// A malformed HCI event: what is wrong, and the event's bytes (the length byte sits at offset 2).
public struct HCIEventError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the event.
    public enum Problem: Hashable, Sendable {
        /// The event is shorter than its fixed fields (`needed` bytes including the H4 header).
        case truncated(needed: Int)
        /// The parameter-length byte (offset 2) disagrees with the bytes read after the header.
        case lengthMismatch(declared: Int, actual: Int)
        /// A return parameter block is shorter than the command's layout.
        case shortReturnParameters(opcode: HCIOpcode, needed: Int, actual: Int)
    }

    /// What is wrong.
    public var problem: Problem
    /// The offending bytes (the whole H4 packet, or the return parameters).
    public var bytes: [UInt8]

    /// Records a problem with `bytes`.
    public init(_ problem: Problem, bytes: [UInt8]) {
        self.problem = problem
        self.bytes = bytes
    }

    init(_ problem: Problem, packet: UnsafeRawBufferPointer) {
        self.init(problem, bytes: Array(packet))
    }

    /// E.g. `malformed HCI event at offset 2: length byte says 6 but 4 bytes follow [04 0e 06 …]`.
    public var description: String {
        let hex =
            bytes.prefix(32).map { byte -> String in
                let digits = String(byte, radix: 16)
                return digits.count < 2 ? "0" + digits : digits
            }.joined(separator: " ") + (bytes.count > 32 ? " …" : "")
        switch problem {
        case .truncated(let needed):
            return "malformed HCI event at offset \(bytes.count): \(bytes.count) bytes, needs \(needed) [\(hex)]"
        case .lengthMismatch(let declared, let actual):
            return "malformed HCI event at offset 2: length byte says \(declared) but \(actual) bytes follow [\(hex)]"
        case .shortReturnParameters(let opcode, let needed, let actual):
            return "\(opcode) returned \(actual) parameter bytes, needs \(needed) [\(hex)]"
        }
    }
}
