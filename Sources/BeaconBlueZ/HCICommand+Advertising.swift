/// The advertising commands: legacy (Bluetooth 4.x) and extended (5.0) advertising of one
/// non-connectable, non-scannable undirected set (ADV_NONCONN_IND) from the public address, on
/// channels 37, 38 and 39, accepting no scan or connection requests.
extension HCICommand {
    /// The handle of the one advertising set the extended commands use.
    public static let advertisingHandle: UInt8 = 0x00

    /// HCI_LE_Set_Advertising_Parameters (§7.8.5): Advertising_Interval_Min and _Max (both the
    /// advertisement's interval), Advertising_Type 0x03 (ADV_NONCONN_IND), Own_Address_Type
    /// 0x00 (public), Peer_Address_Type and Peer_Address (unused: zero), Advertising_Channel_Map
    /// 0x07 (all three), Advertising_Filter_Policy 0x00.
    public static func leSetAdvertisingParameters(_ advertising: BeaconAdvertising) -> HCICommand {
        let units = UInt16(clamping: advertising.intervalUnits)
        var bytes: [UInt8] = []
        for _ in 0..<2 { bytes += [UInt8(units & 0xFF), UInt8(units >> 8)] }
        bytes += [0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07, 0x00]
        return HCICommand(opcode: .leSetAdvertisingParameters, parameters: bytes)
    }

    /// HCI_LE_Set_Advertising_Data (§7.8.7): Advertising_Data_Length, then the data padded with
    /// zeros to 31 bytes.
    public static func leSetAdvertisingData(_ advertising: BeaconAdvertising) -> HCICommand {
        let data = advertising.advertisingData
        let padding = [UInt8](repeating: 0, count: 31 - data.count)
        return HCICommand(opcode: .leSetAdvertisingData, parameters: [UInt8(data.count)] + data + padding)
    }

    /// HCI_LE_Set_Advertising_Enable (§7.8.9): Advertising_Enable.
    public static func leSetAdvertisingEnable(_ enable: Bool) -> HCICommand {
        HCICommand(opcode: .leSetAdvertisingEnable, parameters: [enable ? 0x01 : 0x00])
    }

    /// HCI_LE_Set_Extended_Advertising_Parameters (§7.8.53, version 1) for set
    /// ``advertisingHandle``: Advertising_Event_Properties 0x0010 (legacy PDUs, neither
    /// connectable nor scannable: ADV_NONCONN_IND), Primary_Advertising_Interval_Min and _Max
    /// (3 bytes each), Primary_Advertising_Channel_Map 0x07, Own_Address_Type 0x00 (public),
    /// Peer_Address_Type and Peer_Address (zero), Advertising_Filter_Policy 0x00,
    /// Advertising_TX_Power 0x7F (no preference), Primary_Advertising_PHY 0x01 (LE 1M),
    /// Secondary_Advertising_Max_Skip 0x00, Secondary_Advertising_PHY 0x01, Advertising_SID 0x00,
    /// Scan_Request_Notification_Enable 0x00.
    public static func leSetExtendedAdvertisingParameters(_ advertising: BeaconAdvertising) -> HCICommand {
        let units = min(advertising.intervalUnits, 0xFF_FFFF)
        var bytes: [UInt8] = [advertisingHandle, 0x10, 0x00]
        for _ in 0..<2 { bytes += [UInt8(units & 0xFF), UInt8((units >> 8) & 0xFF), UInt8(units >> 16)] }
        bytes += [0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x7F, 0x01, 0x00, 0x01, 0x00, 0x00]
        return HCICommand(opcode: .leSetExtendedAdvertisingParameters, parameters: bytes)
    }

    /// HCI_LE_Set_Extended_Advertising_Data (§7.8.54) for set ``advertisingHandle``: Operation
    /// 0x03 (complete data), Fragment_Preference 0x01 (do not fragment), Advertising_Data_Length,
    /// the data (at most 31 bytes with legacy PDUs; not padded).
    public static func leSetExtendedAdvertisingData(_ advertising: BeaconAdvertising) -> HCICommand {
        let data = advertising.advertisingData
        return HCICommand(
            opcode: .leSetExtendedAdvertisingData, parameters: [advertisingHandle, 0x03, 0x01, UInt8(data.count)] + data)
    }

    /// HCI_LE_Set_Extended_Advertising_Enable (§7.8.56): Enable, Number_of_Sets 1, then for set
    /// ``advertisingHandle`` Duration 0 (until disabled) and Max_Extended_Advertising_Events 0
    /// (no limit).
    public static func leSetExtendedAdvertisingEnable(_ enable: Bool) -> HCICommand {
        HCICommand(
            opcode: .leSetExtendedAdvertisingEnable,
            parameters: [enable ? 0x01 : 0x00, 0x01, advertisingHandle, 0x00, 0x00, 0x00])
    }
}
