/// The PDU type of a link-layer advertising-channel PDU (the low four bits of the PDU header).
///
/// These numbers differ from the HCI advertising report event types: HCI 0x02 is ADV_SCAN_IND,
/// link-layer 0x02 is ADV_NONCONN_IND.
public enum AdvertisingPDUType: UInt8, Hashable, Sendable, CaseIterable {
    /// Connectable and scannable undirected advertising: AdvA, AdvData.
    case advInd = 0
    /// Connectable directed advertising: AdvA, TargetA.
    case advDirectInd = 1
    /// Non-connectable, non-scannable undirected advertising: AdvA, AdvData.
    case advNonconnInd = 2
    /// Scan request: ScanA, AdvA.
    case scanReq = 3
    /// Scan response: AdvA, ScanRspData.
    case scanRsp = 4
    /// Connection request: InitA, AdvA, LLData.
    case connectInd = 5
    /// Scannable undirected advertising: AdvA, AdvData.
    case advScanInd = 6
    /// Extended advertising (ADV_EXT_IND and the AUX_* PDUs on secondary channels): common extended header.
    case advExtInd = 7
    /// AUX_CONNECT_RSP: common extended header.
    case auxConnectRsp = 8

    /// The name the Bluetooth Core specification uses (`ADV_IND` …).
    public var name: String { "\(staticName)" }

    /// Whether the PDU announces its advertiser to everyone listening (advertising or scan
    /// response), as opposed to a scanner's or initiator's request.
    public var isAdvertisement: Bool {
        switch self {
        case .advInd, .advDirectInd, .advNonconnInd, .scanRsp, .advScanInd, .advExtInd: true
        case .scanReq, .connectInd, .auxConnectRsp: false
        }
    }
}

extension AdvertisingPDUType {
    /// ``name`` as a static string (for ``OutputBuffer``).
    var staticName: StaticString {
        switch self {
        case .advInd: "ADV_IND"
        case .advDirectInd: "ADV_DIRECT_IND"
        case .advNonconnInd: "ADV_NONCONN_IND"
        case .scanReq: "SCAN_REQ"
        case .scanRsp: "SCAN_RSP"
        case .connectInd: "CONNECT_IND"
        case .advScanInd: "ADV_SCAN_IND"
        case .advExtInd: "ADV_EXT_IND"
        case .auxConnectRsp: "AUX_CONNECT_RSP"
        }
    }
}
