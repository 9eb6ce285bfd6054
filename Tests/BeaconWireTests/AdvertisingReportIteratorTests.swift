import BeaconCore
import BeaconWire
import Testing

@Suite("AdvertisingReportIterator")
struct AdvertisingReportIteratorTests {
    /// The owned fields of a report, for comparisons.
    struct Fields: Equatable {
        var kind: AdvertisingReportKind
        var eventType: UInt16
        var addressType: AddressType
        var address: String
        var rssi: Int8?
        var txPower: Int8? = nil
        var primaryPHY: UInt8? = nil
        var secondaryPHY: UInt8? = nil
        var sid: UInt8? = nil
        var dataStatus: AdvertisingDataStatus = .complete
        var directAddressType: AddressType? = nil
        var directAddress: String? = nil
        var periodicAdvertisingInterval: UInt16? = nil
        var data: [UInt8]

        init(
            kind: AdvertisingReportKind, eventType: UInt16, addressType: AddressType, address: String, rssi: Int8?,
            txPower: Int8? = nil, primaryPHY: UInt8? = nil, secondaryPHY: UInt8? = nil, sid: UInt8? = nil,
            dataStatus: AdvertisingDataStatus = .complete, directAddressType: AddressType? = nil,
            directAddress: String? = nil, periodicAdvertisingInterval: UInt16? = nil, data: [UInt8]
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
            self.data = data
        }

        init(_ r: AdvertisingReport) {
            self.init(
                kind: r.kind, eventType: r.eventType, addressType: r.addressType, address: r.address.description,
                rssi: r.rssi, txPower: r.txPower, primaryPHY: r.primaryPHY, secondaryPHY: r.secondaryPHY,
                sid: r.sid, dataStatus: r.dataStatus, directAddressType: r.directAddressType,
                directAddress: r.directAddress?.description,
                periodicAdvertisingInterval: r.periodicAdvertisingInterval, data: Array(r.data))
        }
    }

    /// Parses `packet`, returning the reports before the first error and that error.
    static func parse(_ packet: [UInt8]) -> (reports: [Fields], error: WireError?) {
        packet.withUnsafeBytes { bytes in
            var reports: [Fields] = []
            var iterator = HCIEventParser.advertisingReports(inEvent: bytes)
            do throws(WireError) {
                while let report = try iterator.next() { reports.append(Fields(report)) }
                return (reports, nil)
            } catch {
                return (reports, error)
            }
        }
    }

    @Test("a legacy report: every field where the spec puts it")
    func legacyReport() {
        let (reports, error) = Self.parse(AnnotatedPackets.legacyIBeaconEvent)
        #expect(error == nil)
        #expect(
            reports == [
                Fields(
                    kind: .legacy, eventType: 3, addressType: .random, address: "c1:22:33:44:55:66",
                    rssi: -72, data: AnnotatedPackets.iBeaconAdvertisingData)
            ])
    }

    @Test("three legacy reports in one event are read report after report")
    func multipleLegacyReports() {
        let (reports, error) = Self.parse(AnnotatedPackets.legacyThreeReportEvent)
        #expect(error == nil)
        #expect(
            reports == [
                Fields(
                    kind: .legacy, eventType: 0, addressType: .public, address: "06:05:04:03:02:01", rssi: -60,
                    data: [0x02, 0x01, 0x06]),
                Fields(
                    kind: .legacy, eventType: 4, addressType: .random, address: "ff:ee:dd:cc:bb:aa", rssi: nil,
                    data: [0x04, 0x09, 0x41, 0x42, 0x43]),
                Fields(
                    kind: .legacy, eventType: 2, addressType: .randomIdentity, address: "60:50:40:30:20:10", rssi: -40,
                    data: []),
            ])
    }

    @Test("an extended report: masked event type, PHYs, SID, TX power, interval, direct address")
    func extendedReport() {
        let (reports, error) = Self.parse(AnnotatedPackets.extendedDirectedEvent)
        #expect(error == nil)
        #expect(
            reports == [
                Fields(
                    kind: .extended, eventType: 0x0025, addressType: .random, address: "66:55:44:33:22:11", rssi: -80,
                    txPower: -12, primaryPHY: 3, secondaryPHY: 2, sid: 5, dataStatus: .incomplete,
                    directAddressType: .random, directAddress: "c0:00:00:00:00:01", periodicAdvertisingInterval: 0x0640,
                    data: [0x02, 0x01, 0x06])
            ])
    }

    @Test("an extended report of a legacy PDU maps the not-available codes to nil")
    func extendedLegacyPDU() {
        let (reports, error) = Self.parse(AnnotatedPackets.extendedIBeaconEvent)
        #expect(error == nil)
        #expect(
            reports == [
                Fields(
                    kind: .extended, eventType: 0x0010, addressType: .public, address: "11:22:33:44:55:66", rssi: -64,
                    txPower: nil, primaryPHY: 1, secondaryPHY: nil, sid: nil, data: AnnotatedPackets.iBeaconAdvertisingData)
            ])
    }

    @Test("two extended reports in one event are read report after report")
    func multipleExtendedReports() {
        let (reports, error) = Self.parse(AnnotatedPackets.extendedTwoReportEvent)
        #expect(error == nil)
        #expect(
            reports == [
                Fields(
                    kind: .extended, eventType: 0x0000, addressType: .anonymous, address: "00:00:00:00:00:00",
                    rssi: -100, txPower: 0, primaryPHY: 1, secondaryPHY: 1, sid: 15, data: [0x00]),
                Fields(
                    kind: .extended, eventType: 0x004B, addressType: .public, address: "06:05:04:03:02:01", rssi: nil,
                    txPower: nil, primaryPHY: 1, secondaryPHY: 2, sid: 1, dataStatus: .truncated, data: [0x01, 0x05]),
            ])
    }

    @Test("a directed report has both addresses and no data")
    func directedReport() {
        let (reports, error) = Self.parse(AnnotatedPackets.directedEvent)
        #expect(error == nil)
        #expect(
            reports == [
                Fields(
                    kind: .directed, eventType: 1, addressType: .public, address: "06:05:04:03:02:01",
                    rssi: -90, directAddressType: .random, directAddress: "cf:0e:0d:0c:0b:0a", data: [])
            ])
    }

    @Test(
        "packets without advertising reports yield nothing and no error",
        arguments: [AnnotatedPackets.commandCompleteEvent, AnnotatedPackets.resetCommand, AnnotatedPackets.aclPacket, []])
    func otherPacketsAreIgnored(packet: [UInt8]) {
        let (reports, error) = Self.parse(packet)
        #expect(reports.isEmpty)
        #expect(error == nil)
    }

    /// A malformed packet, the error it must give and how many reports come before it.
    struct Fault: CustomStringConvertible, Sendable {
        let description: String
        let packet: [UInt8]
        let kind: WireError.Kind
        let offset: Int
        let reportsBefore: Int
    }

    static let faults: [Fault] = {
        let single = AnnotatedPackets.legacyIBeaconEvent
        let three = AnnotatedPackets.legacyThreeReportEvent
        var lyingDataLength = single
        lyingDataLength[13] = 0x1F // 31 > the 30 bytes present
        var hugeDataLength = single
        hugeDataLength[13] = 0x20 // 32 > 31
        var zeroReports = single
        zeroReports[4] = 0x00
        var tooManyReports = single
        tooManyReports[4] = 26
        var tooManyExtended = AnnotatedPackets.extendedIBeaconEvent
        tooManyExtended[4] = 11
        var badAddressType = single
        badAddressType[6] = 0x04
        var countLies = three
        countLies[4] = 4 // 4 reports announced, 3 present
        var countShort = three
        countShort[4] = 2 // 2 announced, 3 present
        var secondLies = three
        secondLies[26] = 0x1E // report 1's data length 30, not 5
        var secondOffByOne = three
        secondOffByOne[26] = 0x06 // 6, not 5: report 2 starts 1 byte late
        var extLies = AnnotatedPackets.extendedIBeaconEvent
        extLies[28] = 0x1F
        var badDirectType = AnnotatedPackets.extendedDirectedEvent
        badDirectType[21] = 0x07
        return [
            Fault(
                description: "header cut after the length byte", packet: Array(single.prefix(3)),
                kind: .truncatedPacket, offset: 0, reportsBefore: 0),
            Fault(
                description: "event cut short of its parameter length", packet: Array(single.dropLast()),
                kind: .truncatedPacket, offset: 0, reportsBefore: 0),
            Fault(
                description: "bytes beyond the parameter length", packet: single + [0x00],
                kind: .packetLengthMismatch, offset: single.count, reportsBefore: 0),
            Fault(description: "Num_Reports 0", packet: zeroReports, kind: .invalidReportCount, offset: 4, reportsBefore: 0),
            Fault(description: "Num_Reports 26", packet: tooManyReports, kind: .invalidReportCount, offset: 4, reportsBefore: 0),
            Fault(
                description: "extended Num_Reports 11", packet: tooManyExtended, kind: .invalidReportCount, offset: 4,
                reportsBefore: 0),
            Fault(
                description: "Data_Length runs past the event", packet: lyingDataLength, kind: .truncatedReport,
                offset: 5, reportsBefore: 0),
            Fault(
                description: "Data_Length 32", packet: hugeDataLength, kind: .invalidDataLength, offset: 13,
                reportsBefore: 0),
            Fault(
                description: "reserved address type", packet: badAddressType, kind: .invalidAddressType, offset: 6,
                reportsBefore: 0),
            Fault(
                description: "Num_Reports larger than the reports present", packet: countLies,
                kind: .truncatedReport, offset: 43, reportsBefore: 3),
            Fault(
                description: "Num_Reports smaller than the reports present", packet: countShort,
                kind: .trailingBytes, offset: 33, reportsBefore: 2),
            Fault(
                description: "second report's length lies", packet: secondLies, kind: .truncatedReport, offset: 18,
                reportsBefore: 1),
            Fault(
                description: "second report's length one too long", packet: secondOffByOne, kind: .truncatedReport,
                offset: 34, reportsBefore: 2),
            Fault(
                description: "extended Data_Length runs past the event", packet: extLies, kind: .truncatedReport,
                offset: 5, reportsBefore: 0),
            Fault(
                description: "reserved direct address type", packet: badDirectType, kind: .invalidAddressType,
                offset: 21, reportsBefore: 0),
        ]
    }()

    @Test("malformed events give a typed error with offset and bytes, after the good reports", arguments: faults)
    func malformedEvents(fault: Fault) {
        let (reports, error) = Self.parse(fault.packet)
        #expect(reports.count == fault.reportsBefore)
        #expect(error?.kind == fault.kind)
        #expect(error?.offset == fault.offset)
        let shown = Array(fault.packet.dropFirst(fault.offset).prefix(8))
        #expect(error?.bytes == shown)
    }

    @Test("after an error the iterator is finished")
    func finishedAfterError() throws {
        var packet = AnnotatedPackets.legacyThreeReportEvent
        packet[26] = 0x1E
        try packet.withUnsafeBytes { bytes in
            var reports = HCIEventParser.advertisingReports(inEvent: bytes)
            _ = try reports.next()
            #expect(throws: WireError.self) { try reports.next() }
            #expect(try reports.next() == nil)
        }
    }
}
