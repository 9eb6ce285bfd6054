// Hand-annotated advertising payloads from the AltBeacon and Eddystone specifications and the
// Bluetooth Core Specification Supplement (AD types). Not produced by the encoders under test.

enum AnnotatedFrames {
    /// AltBeacon from Radius Networks (company 0x0118), id1 2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6,
    /// id2 1, id3 2, reference RSSI −59, reserved 0x00.
    static let altBeacon: [UInt8] = [
        0x1B, // AD length 27
        0xFF, // AD type: Manufacturer Specific Data
        0x18, 0x01, // company 0x0118, little-endian
        0xBE, 0xAC, // AltBeacon code
        0x2F, 0x23, 0x44, 0x54, 0xCF, 0x6D, 0x4A, 0x0F, // beacon id bytes 0–7
        0xAD, 0xF2, 0xF4, 0x91, 0x1B, 0xA9, 0xFF, 0xA6, // beacon id bytes 8–15
        0x00, 0x01, // beacon id bytes 16–17 (id2 = 1)
        0x00, 0x02, // beacon id bytes 18–19 (id3 = 2)
        0xC5, // reference RSSI −59 dBm
        0x00, // manufacturer reserved
    ]

    /// The Eddystone service UUID list every Eddystone frame comes with.
    static let eddystoneUUIDList: [UInt8] = [
        0x03, // AD length 3
        0x03, // AD type: Complete List of 16-bit Service UUIDs
        0xAA, 0xFE, // 0xFEAA, little-endian
    ]

    /// Eddystone-UID: TX power at 0 m −18 dBm, namespace 8B0CA750E18A4E8AA83A, instance 0000000004D2.
    static let eddystoneUID: [UInt8] =
        eddystoneUUIDList + [
            0x17, // AD length 23
            0x16, // AD type: Service Data – 16-bit UUID
            0xAA, 0xFE, // 0xFEAA, little-endian
            0x00, // frame type: UID
            0xEE, // TX power at 0 m: −18 dBm
            0x8B, 0x0C, 0xA7, 0x50, 0xE1, 0x8A, 0x4E, 0x8A, 0xA8, 0x3A, // namespace (10 bytes)
            0x00, 0x00, 0x00, 0x00, 0x04, 0xD2, // instance (6 bytes) = 1234
            0x00, 0x00, // reserved
        ]

    /// Eddystone-URL: TX power −21 dBm, "https://www.example.com/".
    static let eddystoneURL: [UInt8] =
        eddystoneUUIDList + [
            0x0E, // AD length 14
            0x16, // AD type: Service Data – 16-bit UUID
            0xAA, 0xFE, // 0xFEAA
            0x10, // frame type: URL
            0xEB, // TX power at 0 m: −21 dBm
            0x01, // scheme: "https://www."
            0x65, 0x78, 0x61, 0x6D, 0x70, 0x6C, 0x65, // "example"
            0x00, // expansion ".com/"
        ]

    /// Eddystone-TLM (unencrypted, version 0): 3000 mV, 23.5 °C, 12345 PDUs, 12345.6 s.
    static let eddystoneTLM: [UInt8] =
        eddystoneUUIDList + [
            0x11, // AD length 17
            0x16, // AD type: Service Data – 16-bit UUID
            0xAA, 0xFE, // 0xFEAA
            0x20, // frame type: TLM
            0x00, // version 0 (unencrypted)
            0x0B, 0xB8, // battery 3000 mV, big-endian
            0x17, 0x80, // temperature 0x1780 = 23.5 °C (8.8 fixed point)
            0x00, 0x00, 0x30, 0x39, // advertising count 12345
            0x00, 0x01, 0xE2, 0x40, // uptime 123456 × 0.1 s
        ]

    /// Eddystone-EID: TX power −20 dBm, ephemeral id 0102030405060708.
    static let eddystoneEID: [UInt8] = [
        0x0D, // AD length 13
        0x16, // AD type: Service Data – 16-bit UUID
        0xAA, 0xFE, // 0xFEAA
        0x30, // frame type: EID
        0xEC, // TX power −20 dBm
        0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, // ephemeral identifier
    ]

    /// A connectable device's payload: flags, name, TX power, UUID lists, other data.
    static let deviceData: [UInt8] = [
        0x02, 0x01, 0x1A, // Flags: LE General Discoverable, BR/EDR controller + host
        0x05, 0x08, 0x4B, 0x65, 0x79, 0x73, // Shortened Local Name "Keys"
        0x02, 0x0A, 0xF4, // Tx Power Level −12 dBm
        0x05, 0x02, 0x0F, 0x18, 0x0A, 0x18, // Incomplete 16-bit UUIDs: 0x180F, 0x180A
        0x05, 0x05, 0x78, 0x56, 0x34, 0x12, // Complete 32-bit UUIDs: 0x12345678
        0x11, 0x07, // Complete 128-bit UUIDs, one UUID (little-endian):
        0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0, //   6E400001-B5A3-F393-E0A9-E50E24DCCA9E
        0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E, //   (Nordic UART service)
        0x05, 0xFF, 0x06, 0x00, 0x01, 0x09, // Manufacturer data: company 0x0006 (Microsoft), 01 09
        0x05, 0x16, 0x0F, 0x18, 0x64, 0x00, // Service data 0x180F (Battery): 64 00
        0x00, 0x00, // padding (zero length ends the data)
    ]
}
