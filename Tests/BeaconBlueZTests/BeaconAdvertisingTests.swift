import BeaconBlueZ
import BeaconCore
import FoundationEssentials
import Testing

/// The advertising commands, byte by byte. The legacy ones are compared with what
/// `vhci-vm/vm/vhci-test.sh` sends with `hcitool cmd` to make a btvirt controller advertise the
/// same iBeacon (E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major 1, minor 2, -59 dBm, 100 ms); the
/// extended ones with the Core specification's layouts (Vol 4, Part E, §7.8.53, §7.8.54, §7.8.56).
@Suite("BeaconAdvertising")
struct BeaconAdvertisingTests {
    static let identity = BeaconID.iBeacon(
        uuid: UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: 2)
    static let uuidBytes: [UInt8] = [
        0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0,
    ]
    static let advertisingData: [UInt8] =
        [
            0x02, 0x01, 0x06, // AD: length 2, Flags, LE General Discoverable | BR/EDR Not Supported
            0x1A, 0xFF, // AD: length 26, Manufacturer Specific Data
            0x4C, 0x00, // company 0x004C (Apple), little-endian
            0x02, 0x15, // iBeacon type 0x02, 21 bytes follow
        ] + uuidBytes + [
            0x00, 0x01, // major 1, big-endian
            0x00, 0x02, // minor 2, big-endian
            0xC5, // measured power -59 dBm (signed)
        ]

    @Test("The advertising data is the flags and the iBeacon frame, 30 bytes")
    func advertisingData() throws {
        let advertising = try BeaconAdvertising(identity: Self.identity)
        #expect(advertising.advertisingData == Self.advertisingData)
        #expect(advertising.advertisingData.count == 30)
        #expect(advertising.interval == .milliseconds(100))
        let loud = try BeaconAdvertising(identity: Self.identity, measuredPower: -40)
        #expect(loud.advertisingData.last == 0xD8) // -40
    }

    @Test("Legacy: LE Set Advertising Parameters, Data and Enable as vhci-test.sh sends them with hcitool")
    func legacyCommands() throws {
        let advertising = try BeaconAdvertising(identity: Self.identity)
        let commands = ScanCommandSet.legacy.advertisingCommands(advertising).map(\.packet)
        let parameters: [UInt8] = [
            0x01, 0x06, 0x20, // H4 command, opcode 0x2006
            0x0F, // 15 parameter bytes
            0xA0, 0x00, // Advertising_Interval_Min 160 × 0.625 ms = 100 ms
            0xA0, 0x00, // Advertising_Interval_Max 100 ms
            0x03, // Advertising_Type: ADV_NONCONN_IND
            0x00, // Own_Address_Type: public
            0x00, // Peer_Address_Type (unused)
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // Peer_Address (unused)
            0x07, // Advertising_Channel_Map: 37, 38, 39
            0x00, // Advertising_Filter_Policy: none
        ]
        let data: [UInt8] =
            [
                0x01, 0x08, 0x20, // H4 command, opcode 0x2008
                0x20, // 32 parameter bytes
                0x1E, // Advertising_Data_Length 30
            ] + Self.advertisingData + [0x00] // padded to 31 bytes
        let enable: [UInt8] = [
            0x01, 0x0A, 0x20, // H4 command, opcode 0x200A
            0x01, // 1 parameter byte
            0x01, // Advertising_Enable: on
        ]
        #expect(commands == [parameters, data, enable])
        #expect(ScanCommandSet.legacy.advertisingDisableCommand.packet == [0x01, 0x0A, 0x20, 0x01, 0x00])
    }

    @Test("Extended: LE Set Extended Advertising Parameters, Data and Enable with legacy PDUs, set 0")
    func extendedCommands() throws {
        let advertising = try BeaconAdvertising(identity: Self.identity, interval: .milliseconds(150))
        let commands = ScanCommandSet.extended.advertisingCommands(advertising).map(\.packet)
        let parameters: [UInt8] = [
            0x01, 0x36, 0x20, // H4 command, opcode 0x2036
            0x19, // 25 parameter bytes
            0x00, // Advertising_Handle 0
            0x10, 0x00, // Advertising_Event_Properties: legacy PDUs, not connectable/scannable = ADV_NONCONN_IND
            0xF0, 0x00, 0x00, // Primary_Advertising_Interval_Min 240 × 0.625 ms = 150 ms (3 bytes)
            0xF0, 0x00, 0x00, // Primary_Advertising_Interval_Max 150 ms
            0x07, // Primary_Advertising_Channel_Map: 37, 38, 39
            0x00, // Own_Address_Type: public
            0x00, // Peer_Address_Type (unused)
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // Peer_Address (unused)
            0x00, // Advertising_Filter_Policy: none
            0x7F, // Advertising_TX_Power: no preference
            0x01, // Primary_Advertising_PHY: LE 1M
            0x00, // Secondary_Advertising_Max_Skip
            0x01, // Secondary_Advertising_PHY: LE 1M
            0x00, // Advertising_SID 0
            0x00, // Scan_Request_Notification_Enable: off
        ]
        let data: [UInt8] =
            [
                0x01, 0x37, 0x20, // H4 command, opcode 0x2037
                0x22, // 34 parameter bytes
                0x00, // Advertising_Handle 0
                0x03, // Operation: complete data
                0x01, // Fragment_Preference: do not fragment
                0x1E, // Advertising_Data_Length 30 (not padded)
            ] + Self.advertisingData
        let enable: [UInt8] = [
            0x01, 0x39, 0x20, // H4 command, opcode 0x2039
            0x06, // 6 parameter bytes
            0x01, // Enable
            0x01, // Number_of_Sets 1
            0x00, // Advertising_Handle[0] 0
            0x00, 0x00, // Duration[0] 0: until disabled
            0x00, // Max_Extended_Advertising_Events[0] 0: no limit
        ]
        #expect(commands == [parameters, data, enable])
        #expect(
            ScanCommandSet.extended.advertisingDisableCommand.packet == [
                0x01, 0x39, 0x20, 0x06, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
            ])
    }

    @Test(
        "Out of range: interval, measured power, a non-iBeacon identity",
        arguments: [
            (Duration.milliseconds(99), -59, false), (.milliseconds(10_241), -59, false), (.milliseconds(100), -101, false),
            (.milliseconds(100), 1, false), (.milliseconds(100), -59, true),
        ])
    func refusesOutOfRange(interval: Duration, power: Int, eddystone: Bool) {
        let identity = eddystone ? BeaconID.eddystoneUID(namespaceHigh: 1, namespaceLow: 2, instance: 3) : Self.identity
        #expect(throws: BlueZScannerError.self) {
            try BeaconAdvertising(identity: identity, measuredPower: power, interval: interval)
        }
    }

    @Test("Opcode names follow the specification")
    func opcodeNames() {
        #expect(HCIOpcode.leSetAdvertisingParameters.description == "LE Set Advertising Parameters (0x2006)")
        #expect(HCIOpcode.leSetExtendedAdvertisingEnable.description == "LE Set Extended Advertising Enable (0x2039)")
    }
}
