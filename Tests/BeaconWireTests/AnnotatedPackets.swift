// Hand-annotated byte fixtures, written from the Bluetooth Core Specification v5.x (Vol 4 Part E
// §7.7.65.2 LE Advertising Report, §7.7.65.11 LE Directed Advertising Report, §7.7.65.13 LE
// Extended Advertising Report, §5.2 arrayed parameters; Vol 3 Part C §11 AD format), Apple's
// "Proximity Beacon Specification" (iBeacon), the AltBeacon specification and Google's
// Eddystone protocol specification. None of these bytes was produced by the encoder under test.

/// The AirLocate proximity UUID used in Apple's samples, E2C56DB5-DFFB-48D2-B060-D0F5A71096E0.
let airLocateUUIDHigh: UInt64 = 0xE2C5_6DB5_DFFB_48D2
let airLocateUUIDLow: UInt64 = 0xB060_D0F5_A710_96E0

enum AnnotatedPackets {
    /// Advertising data: Flags + iBeacon (UUID AirLocate, major 1, minor 258, power −59).
    static let iBeaconAdvertisingData: [UInt8] = [
        0x02, // AD length 2
        0x01, // AD type: Flags
        0x06, // LE General Discoverable | BR/EDR Not Supported
        0x1A, // AD length 26
        0xFF, // AD type: Manufacturer Specific Data
        0x4C, 0x00, // company 0x004C (Apple), little-endian
        0x02, // iBeacon type
        0x15, // iBeacon length: 21
        0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, // UUID bytes 0–7
        0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0, // UUID bytes 8–15
        0x00, 0x01, // major 1, big-endian
        0x01, 0x02, // minor 0x0102 = 258, big-endian
        0xC5, // measured power −59 dBm
    ]

    /// One LE Advertising Report (legacy) carrying the iBeacon above.
    static let legacyIBeaconEvent: [UInt8] =
        [
            0x04, // H4: HCI event
            0x3E, // event code: LE Meta
            0x2A, // parameter length 42 = 2 + 9 + 30 + 1
            0x02, // subevent: LE Advertising Report
            0x01, // Num_Reports 1
            0x03, // Event_Type[0]: ADV_NONCONN_IND
            0x01, // Address_Type[0]: random
            0x66, 0x55, 0x44, 0x33, 0x22, 0xC1, // Address[0] C1:22:33:44:55:66, LSB first
            0x1E, // Data_Length[0] 30
        ] + iBeaconAdvertisingData + [
            0xB8 // RSSI[0] −72 dBm
        ]

    /// Three legacy reports in one event, laid out report after report (§5.2:
    /// "ParameterA[0], ParameterB[0], ParameterA[1], ParameterB[1] …").
    static let legacyThreeReportEvent: [UInt8] = [
        0x04, // H4: HCI event
        0x3E, // event code: LE Meta
        0x28, // parameter length 40 = 2 + 13 + 15 + 10
        0x02, // subevent: LE Advertising Report
        0x03, // Num_Reports 3
        // report 0
        0x00, // Event_Type: ADV_IND
        0x00, // Address_Type: public
        0x01, 0x02, 0x03, 0x04, 0x05, 0x06, // Address 06:05:04:03:02:01
        0x03, // Data_Length 3
        0x02, 0x01, 0x06, // AD: Flags 0x06
        0xC4, // RSSI −60 dBm
        // report 1
        0x04, // Event_Type: SCAN_RSP
        0x01, // Address_Type: random
        0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF, // Address FF:EE:DD:CC:BB:AA
        0x05, // Data_Length 5
        0x04, 0x09, 0x41, 0x42, 0x43, // AD: Complete Local Name "ABC"
        0x7F, // RSSI 127: not available
        // report 2
        0x02, // Event_Type: ADV_SCAN_IND
        0x03, // Address_Type: random identity
        0x10, 0x20, 0x30, 0x40, 0x50, 0x60, // Address 60:50:40:30:20:10
        0x00, // Data_Length 0
        0xD8, // RSSI −40 dBm
    ]

    /// One LE Extended Advertising Report with every optional field present, and reserved bit 8
    /// of the event type set (it must be masked off).
    static let extendedDirectedEvent: [UInt8] = [
        0x04, // H4: HCI event
        0x3E, // event code: LE Meta
        0x1D, // parameter length 29 = 2 + 24 + 3
        0x0D, // subevent: LE Extended Advertising Report
        0x01, // Num_Reports 1
        0x25, 0x01, // Event_Type 0x0125: connectable, directed, data status 01 (incomplete), reserved bit 8
        0x01, // Address_Type: random
        0x11, 0x22, 0x33, 0x44, 0x55, 0x66, // Address 66:55:44:33:22:11
        0x03, // Primary_PHY: LE Coded
        0x02, // Secondary_PHY: LE 2M
        0x05, // Advertising_SID 5
        0xF4, // TX_Power −12 dBm
        0xB0, // RSSI −80 dBm
        0x40, 0x06, // Periodic_Advertising_Interval 0x0640
        0xFE, // Direct_Address_Type: random, not resolved by the controller
        0x01, 0x00, 0x00, 0x00, 0x00, 0xC0, // Direct_Address C0:00:00:00:00:01
        0x03, // Data_Length 3
        0x02, 0x01, 0x06, // AD: Flags 0x06
    ]

    /// The iBeacon as an LE Extended Advertising Report of a legacy PDU, every "not available"
    /// code used (what BlueZ controllers send for legacy advertising when extended scanning).
    static let extendedIBeaconEvent: [UInt8] =
        [
            0x04, // H4: HCI event
            0x3E, // event code: LE Meta
            0x38, // parameter length 56 = 2 + 24 + 30
            0x0D, // subevent: LE Extended Advertising Report
            0x01, // Num_Reports 1
            0x10, 0x00, // Event_Type 0x0010: legacy PDU, ADV_NONCONN_IND
            0x00, // Address_Type: public
            0x66, 0x55, 0x44, 0x33, 0x22, 0x11, // Address 11:22:33:44:55:66
            0x01, // Primary_PHY: LE 1M
            0x00, // Secondary_PHY: none
            0xFF, // Advertising_SID: no ADI
            0x7F, // TX_Power: not available
            0xC0, // RSSI −64 dBm
            0x00, 0x00, // Periodic_Advertising_Interval: none
            0x00, // Direct_Address_Type (unused)
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // Direct_Address (unused)
            0x1E, // Data_Length 30
        ] + iBeaconAdvertisingData

    /// Two LE Extended Advertising Reports in one event, report after report; the first
    /// anonymous, the second a scan response.
    static let extendedTwoReportEvent: [UInt8] = [
        0x04, // H4: HCI event
        0x3E, // event code: LE Meta
        0x35, // parameter length 53 = 2 + (24 + 1) + (24 + 2)
        0x0D, // subevent: LE Extended Advertising Report
        0x02, // Num_Reports 2
        // report 0
        0x00, 0x00, // Event_Type 0x0000: non-connectable, non-scannable, extended PDU, complete
        0xFF, // Address_Type: anonymous
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // Address (none)
        0x01, // Primary_PHY: LE 1M
        0x01, // Secondary_PHY: LE 1M
        0x0F, // Advertising_SID 15
        0x00, // TX_Power 0 dBm
        0x9C, // RSSI −100 dBm
        0x00, 0x00, // Periodic_Advertising_Interval: none
        0x00, // Direct_Address_Type (unused)
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // Direct_Address (unused)
        0x01, // Data_Length 1
        0x00, // Data: one padding byte
        // report 1
        0x4B, 0x00, // Event_Type 0x004B: connectable, scannable, scan response, data status 2 (truncated)
        0x00, // Address_Type: public
        0x01, 0x02, 0x03, 0x04, 0x05, 0x06, // Address 06:05:04:03:02:01
        0x01, // Primary_PHY: LE 1M
        0x02, // Secondary_PHY: LE 2M
        0x01, // Advertising_SID 1
        0x7F, // TX_Power: not available
        0x7F, // RSSI: not available
        0x00, 0x00, // Periodic_Advertising_Interval: none
        0x00, // Direct_Address_Type (unused)
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // Direct_Address (unused)
        0x02, // Data_Length 2
        0x01, 0x05, // Data: a truncated AD structure (type 0x05, no UUID bytes)
    ]

    /// One LE Directed Advertising Report.
    static let directedEvent: [UInt8] = [
        0x04, // H4: HCI event
        0x3E, // event code: LE Meta
        0x12, // parameter length 18 = 2 + 16
        0x0B, // subevent: LE Directed Advertising Report
        0x01, // Num_Reports 1
        0x01, // Event_Type: ADV_DIRECT_IND
        0x00, // Address_Type: public
        0x01, 0x02, 0x03, 0x04, 0x05, 0x06, // Address 06:05:04:03:02:01
        0x01, // Direct_Address_Type: random
        0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0xCF, // Direct_Address CF:0E:0D:0C:0B:0A
        0xA6, // RSSI −90 dBm
    ]

    /// A Command Complete event (no advertising reports in it).
    static let commandCompleteEvent: [UInt8] = [
        0x04, // H4: HCI event
        0x0E, // event code: Command Complete
        0x04, // parameter length 4
        0x01, // Num_HCI_Command_Packets 1
        0x0C, 0x20, // opcode 0x200C LE Set Scan Enable
        0x00, // status: success
    ]

    /// HCI Reset command.
    static let resetCommand: [UInt8] = [
        0x01, // H4: HCI command
        0x03, 0x0C, // opcode 0x0C03 Reset
        0x00, // parameter length 0
    ]

    /// A 2-byte ACL packet.
    static let aclPacket: [UInt8] = [
        0x02, // H4: ACL data
        0x40, 0x20, // handle 0x040, PB flag 2 (first automatically flushable)
        0x02, 0x00, // data length 2, little-endian
        0xAB, 0xCD, // data
    ]

    /// A 1-byte SCO packet.
    static let scoPacket: [UInt8] = [
        0x03, // H4: SCO data
        0x01, 0x00, // handle 0x001
        0x01, // data length 1
        0x55, // data
    ]

    /// A 3-byte ISO packet with the top two length bits set to RFU values that must be ignored.
    static let isoPacket: [UInt8] = [
        0x05, // H4: ISO data
        0x10, 0x20, // handle 0x010, PB flag 2 (complete SDU)
        0x03, 0xC0, // ISO_Data_Load_Length 3 (14 bits; bits 14–15 RFU, set here)
        0x01, 0x02, 0x03, // data
    ]
}
