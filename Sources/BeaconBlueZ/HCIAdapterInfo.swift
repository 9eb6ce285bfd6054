import BeaconCore

/// One Bluetooth adapter (controller) the kernel knows about, as `hciconfig` lists it.
public struct HCIAdapterInfo: Hashable, Sendable, CustomStringConvertible {
    /// The adapter index: `N` in `hciN`.
    public var index: UInt16
    /// The kernel's name for it, e.g. `hci0`.
    public var name: String
    /// Its public address, when the kernel knows it.
    public var address: BluetoothAddress?
    /// Whether the adapter is up (powered, `HCI_UP`).
    public var isUp: Bool

    /// Describes an adapter.
    public init(index: UInt16, name: String? = nil, address: BluetoothAddress? = nil, isUp: Bool) {
        self.index = index
        self.name = name ?? "hci\(index)"
        self.address = address
        self.isUp = isUp
    }

    /// `hci0 (00:11:22:33:44:55, up)`.
    public var description: String {
        let state = isUp ? "up" : "down"
        if let address { return "\(name) (\(address), \(state))" }
        return "\(name) (\(state))"
    }
}
