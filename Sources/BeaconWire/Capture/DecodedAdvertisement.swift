import BeaconCore

/// One advertising report found in a capture: the wire parser's ``AdvertisingReport`` (a borrowed
/// view, valid only inside the callback) with where and when it was captured.
public struct DecodedAdvertisement {
    /// When the record holding it was captured.
    public var timestamp: Timestamp
    /// 0-based number of the record in the file (tshark's frame number minus one).
    public var recordIndex: Int
    /// Index of the report inside its HCI event (0 for sniffer PDUs).
    public var reportIndex: Int
    /// The report. For sniffer PDUs `kind` is `linkLayer`, `eventType` the link-layer PDU type and
    /// `channel` the channel index.
    public var report: AdvertisingReport
    /// Sniffer PDUs only: whether the packet's CRC was correct (`nil` for HCI reports). The AD
    /// bytes of a packet with a bad CRC may be garbage.
    public var crcOK: Bool?

    /// Creates a value.
    public init(timestamp: Timestamp, recordIndex: Int, reportIndex: Int, report: AdvertisingReport, crcOK: Bool?) {
        self.timestamp = timestamp
        self.recordIndex = recordIndex
        self.reportIndex = reportIndex
        self.report = report
        self.crcOK = crcOK
    }
}
