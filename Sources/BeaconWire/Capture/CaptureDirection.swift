/// Which way a captured HCI packet travelled, as far as the container says.
public enum CaptureDirection: UInt8, Hashable, Sendable {
    /// Host to controller (commands, outgoing ACL).
    case sent
    /// Controller to host (events, incoming ACL).
    case received
    /// The container does not say (sniffer captures, plain H4).
    case unknown
}
