/// The btsnoop datalink types this package reads and writes.
public enum BtsnoopDatalink: UInt32, Sendable, CaseIterable {
    /// Un-encapsulated HCI (H1): the packet type is in the record flags.
    case hciUnencapsulated = 1001
    /// HCI UART (H4): each record starts with the H4 packet-type byte.
    case hciUART = 1002
    /// Linux Bluetooth monitor, as `btmon -w` writes: controller index and opcode in the flags.
    case linuxMonitor = 2001
}
