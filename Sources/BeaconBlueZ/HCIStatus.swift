/// An HCI status / error code returned in Command Complete and Command Status events
/// (Core spec Vol 1, Part F).
public struct HCIStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code byte.
    public let rawValue: UInt8

    /// Wraps a code byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `0x00` Success.
    public static let success = HCIStatus(rawValue: 0x00)
    /// `0x01` Unknown HCI Command: the controller does not implement the command.
    public static let unknownCommand = HCIStatus(rawValue: 0x01)
    /// `0x03` Hardware Failure.
    public static let hardwareFailure = HCIStatus(rawValue: 0x03)
    /// `0x0C` Command Disallowed: not allowed in the controller's current state (e.g. scan
    /// parameters changed while another host is scanning, or legacy and extended commands mixed).
    public static let commandDisallowed = HCIStatus(rawValue: 0x0C)
    /// `0x11` Unsupported Feature or Parameter Value.
    public static let unsupportedFeature = HCIStatus(rawValue: 0x11)
    /// `0x12` Invalid HCI Command Parameters.
    public static let invalidParameters = HCIStatus(rawValue: 0x12)

    /// `Command Disallowed (0x0c)`.
    public var description: String {
        let name: String? =
            switch self {
            case .success: "Success"
            case .unknownCommand: "Unknown HCI Command"
            case .hardwareFailure: "Hardware Failure"
            case .commandDisallowed: "Command Disallowed"
            case .unsupportedFeature: "Unsupported Feature or Parameter Value"
            case .invalidParameters: "Invalid HCI Command Parameters"
            default: nil
            }
        let digits = String(rawValue, radix: 16)
        let code = "0x" + (digits.count < 2 ? "0" : "") + digits
        return name.map { "\($0) (\(code))" } ?? "HCI error \(code)"
    }
}
