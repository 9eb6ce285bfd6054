import BeaconCore

/// Turns the records of a capture into advertising reports: HCI LE (Extended / Directed)
/// Advertising Report events through ``HCIEventParser``, sniffer advertising-channel PDUs
/// (link types 256 and 272) through ``SnifferFrame`` and ``AdvertisingChannelPDU``, all as
/// ``AdvertisingReport`` views with their capture timestamps. Allocates nothing per record.
public struct CaptureDecoder: Sendable {
    /// Which sniffer PDUs become reports.
    public struct Configuration: Hashable, Sendable {
        /// Deliver sniffer PDUs whose CRC is wrong (their AD bytes may be garbage). Default `true`,
        /// as tshark lists them.
        public var includeBadCRC: Bool
        /// Deliver SCAN_REQ, CONNECT_IND and AUX_CONNECT_RSP PDUs, which name an advertiser (AdvA)
        /// but are sent by a scanner or initiator (their RSSI is not the advertiser's). Default
        /// `true`, as tshark lists them.
        public var includeRequests: Bool

        /// Creates a configuration.
        public init(includeBadCRC: Bool = true, includeRequests: Bool = true) {
            self.includeBadCRC = includeBadCRC
            self.includeRequests = includeRequests
        }
    }

    /// What the decoder hands to its callback.
    public enum Item {
        /// An advertising report (borrowed view).
        case advertisement(DecodedAdvertisement)
        /// A record that could not be (fully) decoded; decoding continues.
        case error(CaptureDecodeError)
    }

    /// The configuration.
    public let configuration: Configuration

    /// Creates a decoder.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Decodes every record of `file`, calling `body` with each report and each error. Throwing
    /// from `body` stops decoding and rethrows.
    /// - Returns: the counts of records, reports and errors by kind.
    @discardableResult
    public func decode(_ file: CaptureFile, _ body: (Item) throws -> Void) rethrows -> CaptureSummary {
        var summary = CaptureSummary()
        try file.forEachItem { item in
            switch item {
            case .record(let record):
                summary.recordsRead += 1
                try decode(record, summary: &summary, body)
            case .error(let error):
                summary.recordsRead += error.recordIndex == nil ? 0 : 1
                try report(
                    CaptureDecodeError(
                        cause: .capture(error), recordIndex: error.recordIndex,
                        recordOffset: error.offset), summary: &summary, body)
            }
        }
        return summary
    }

    /// Decodes one record.
    public func decode(_ record: CaptureRecord, summary: inout CaptureSummary, _ body: (Item) throws -> Void) rethrows {
        switch record.linkType {
        case .hciH4:
            guard record.bytes.count >= 2, record.bytes[0] == 0x04, record.bytes[1] == 0x3E else { return }
            var reports = HCIEventParser.advertisingReports(inEvent: record.bytes)
            var reportIndex = 0
            while true {
                let next: AdvertisingReport?
                do {
                    next = try reports.next()
                } catch {
                    try self.report(
                        CaptureDecodeError(
                            cause: .hci(error), recordIndex: record.index,
                            recordOffset: record.offset), summary: &summary, body)
                    return
                }
                guard let advertisingReport = next else { return }
                summary.advertisingReports += 1
                try body(
                    .advertisement(
                        DecodedAdvertisement(
                            timestamp: record.timestamp, recordIndex: record.index,
                            reportIndex: reportIndex, report: advertisingReport,
                            crcOK: nil)))
                reportIndex += 1
            }
        case .leLinkLayerWithPHDR, .nordicBLE:
            let frame: SnifferFrame
            let pdu: AdvertisingChannelPDU?
            do throws(LinkLayerError) {
                frame = try SnifferFrame.parse(record.bytes, linkType: record.linkType)
                pdu = try AdvertisingChannelPDU.parse(frame.packet)
            } catch {
                return try report(
                    CaptureDecodeError(
                        cause: .linkLayer(error), recordIndex: record.index,
                        recordOffset: record.offset), summary: &summary, body)
            }
            guard let pdu, let address = pdu.advertiserAddress,
                configuration.includeBadCRC || frame.crcOK,
                configuration.includeRequests || pdu.type?.isAdvertisement == true
            else { return }
            let advertisingReport = AdvertisingReport(
                kind: .linkLayer, eventType: UInt16(pdu.rawType), addressType: pdu.advertiserAddressIsRandom ? .random : .public,
                address: address, rssi: frame.rssi, txPower: pdu.txPower, primaryPHY: frame.phy == 2 ? 3 : frame.phy + 1,
                sid: pdu.sid, directAddressType: pdu.type == .advDirectInd ? (pdu.rxAdd ? .random : .public) : nil,
                directAddress: pdu.type == .advDirectInd ? pdu.peerAddress : nil, channel: frame.channel,
                data: pdu.advertisingData)
            summary.advertisingReports += 1
            try body(
                .advertisement(
                    DecodedAdvertisement(
                        timestamp: record.timestamp, recordIndex: record.index,
                        reportIndex: 0, report: advertisingReport, crcOK: frame.crcOK)))
        default:
            return
        }
    }

    private func report(_ error: CaptureDecodeError, summary: inout CaptureSummary, _ body: (Item) throws -> Void) rethrows {
        summary.errorsByKind[error.kindName, default: 0] += 1
        try body(.error(error))
    }
}
