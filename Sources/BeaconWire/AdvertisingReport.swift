import BeaconCore

/// One advertising report: a non-owning view of the fields of an HCI LE (Extended / Directed)
/// Advertising Report or of a sniffed link-layer advertising PDU.
///
/// ``data`` points into the buffer being parsed, so a report is valid only inside the callback
/// (or iterator step) that produced it: copy what you want to keep.
public struct AdvertisingReport {
    /// Which kind of event or PDU this came from.
    public var kind: AdvertisingReportKind
    /// The raw event type: 0…4 for legacy reports (ADV_IND, ADV_DIRECT_IND, ADV_SCAN_IND,
    /// ADV_NONCONN_IND, SCAN_RSP); for extended reports the 16-bit value with reserved bits 7–15
    /// cleared (bit 0 connectable, 1 scannable, 2 directed, 3 scan response, 4 legacy PDU,
    /// 5–6 data status).
    public var eventType: UInt16
    /// The advertiser's address type.
    public var addressType: AddressType
    /// The advertiser's address.
    public var address: BluetoothAddress
    /// Received signal strength in dBm; `nil` when the controller reported 127 (not available).
    public var rssi: Int8?
    /// The advertiser's transmit power in dBm (extended reports); `nil` when not available.
    public var txPower: Int8?
    /// Primary advertising PHY (extended reports: 1 = LE 1M, 3 = LE Coded).
    public var primaryPHY: UInt8?
    /// Secondary advertising PHY (extended reports; `nil` when no secondary channel was used).
    public var secondaryPHY: UInt8?
    /// Advertising set ID (extended reports; `nil` when the PDU has no ADI, value 0xFF).
    public var sid: UInt8?
    /// Whether ``data`` is complete (extended reports may be fragmented).
    public var dataStatus: AdvertisingDataStatus
    /// The type of ``directAddress`` (directed advertising only).
    public var directAddressType: AddressType?
    /// The address a directed advertisement was sent to (directed advertising only).
    public var directAddress: BluetoothAddress?
    /// Periodic advertising interval in units of 1.25 ms (extended reports; `nil` when none).
    public var periodicAdvertisingInterval: UInt16?
    /// The RF channel a sniffer received the PDU on (37, 38, 39 …), if known.
    public var channel: UInt8?
    /// The advertising data (AD structures), borrowed from the parsed buffer.
    public var data: UnsafeRawBufferPointer

    /// Creates a report from its fields (used by the HCI parser and by sniffer-PDU parsers).
    @inlinable
    public init(
        kind: AdvertisingReportKind, eventType: UInt16, addressType: AddressType,
        address: BluetoothAddress, rssi: Int8?, txPower: Int8? = nil, primaryPHY: UInt8? = nil,
        secondaryPHY: UInt8? = nil, sid: UInt8? = nil, dataStatus: AdvertisingDataStatus = .complete,
        directAddressType: AddressType? = nil, directAddress: BluetoothAddress? = nil,
        periodicAdvertisingInterval: UInt16? = nil, channel: UInt8? = nil,
        data: UnsafeRawBufferPointer
    ) {
        self.kind = kind
        self.eventType = eventType
        self.addressType = addressType
        self.address = address
        self.rssi = rssi
        self.txPower = txPower
        self.primaryPHY = primaryPHY
        self.secondaryPHY = secondaryPHY
        self.sid = sid
        self.dataStatus = dataStatus
        self.directAddressType = directAddressType
        self.directAddress = directAddress
        self.periodicAdvertisingInterval = periodicAdvertisingInterval
        self.channel = channel
        self.data = data
    }

    /// The AD structures of ``data``.
    @inlinable
    public var adStructures: ADStructureIterator { ADStructureIterator(data) }
}
