import BeaconCore

extension LinkType {
    /// `LINKTYPE_BLUETOOTH_LINUX_MONITOR`: a 4-byte big-endian header (controller index, monitor
    /// opcode) then the payload. Capture readers give non-HCI monitor records (new index, system
    /// notes, …) in this framing; HCI packets are converted to H4.
    public static let bluetoothLinuxMonitor = LinkType(rawValue: 254)
}
