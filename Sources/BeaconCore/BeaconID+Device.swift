extension BeaconID {
    /// The longest device name, in bytes: the 20 bytes an identity holds.
    public static let deviceNameMaximumLength = 20

    /// The identity of the device enrolled as `name`: 1 to 20 letters (ASCII), digits, `-`, `_` or
    /// `.` (`ada-phone`), held in the identity's 20 bytes so that gateways, hubs and files agree
    /// on it without a table; `nil` for any other name.
    public static func device(named name: some StringProtocol) -> BeaconID? {
        let bytes = Array(name.utf8)
        guard (1...deviceNameMaximumLength).contains(bytes.count), bytes.allSatisfy(isDeviceNameByte) else { return nil }
        let padded = bytes + [UInt8](repeating: 0, count: deviceNameMaximumLength - bytes.count)
        func word(_ range: Range<Int>) -> UInt64 { padded[range].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        return BeaconID(kind: .device, high: word(0..<8), low: word(8..<16), tail: UInt32(word(16..<20)))
    }

    /// A device identity from its three words, as a report or a state file stores them.
    @inlinable
    public static func device(high: UInt64, low: UInt64, tail: UInt32) -> BeaconID {
        BeaconID(kind: .device, high: high, low: low, tail: tail)
    }

    /// The name a device identity stands for; `nil` for other kinds.
    public var deviceName: String? {
        guard kind == .device else { return nil }
        var bytes: [UInt8] = []
        for (word, count) in [(high, 8), (low, 8), (UInt64(tail), 4)] {
            for index in (0..<count).reversed() {
                let byte = UInt8(truncatingIfNeeded: word >> UInt64(8 * index))
                if byte == 0 { return String(decoding: bytes, as: UTF8.self) }
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `byte` may be in a device's name.
    static func isDeviceNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default: false
        }
    }
}
