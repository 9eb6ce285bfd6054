// libFuzzer harness for BeaconWire: feeds arbitrary bytes to the H4 framer (whole and split),
// the LE advertising report parser, the AD structure iterator, the AD element and beacon frame
// decoders, the lazily built strings, and — as a whole file — the capture readers (btsnoop,
// pcap, pcapng) with the capture decoder (HCI events and sniffer link-layer PDUs); and a site's
// gateway reports (BeaconSite's decoder, binary and JSON) with their records' range checks and
// the records topic's parser; and time: the input as RFC 3339 text and as a duration, and its
// bytes as 64-bit values through every timestamp constructor and operation (none may trap).
// Built and run by scripts/fuzz.sh.
import BeaconCore
import BeaconSiteReport
import BeaconWire

@_cdecl("LLVMFuzzerTestOneInput")
public func wireFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    var sink = 0

    // 0. The input as a gateway report; and with the binary magic in front, so that the fuzzer
    // reaches the record parser without having to find the header first.
    var records = 0
    if let header = try? decodeReport(bytes, &records) { sink &+= header.recordCount &+ records }
    if size >= 2 {
        var framed: [UInt8] = [0x62, 0x73, 1, 0]
        framed.append(contentsOf: bytes)
        framed.withUnsafeBytes { framedBytes in
            if let header = try? decodeReport(framedBytes, &records) { sink &+= header.recordCount }
        }
    }

    // 1. The input as an H4 stream, whole and split at a point chosen by the input.
    var whole: [Int] = []
    var framer = H4Framer(configuration: .init(maximumPacketLength: 1024))
    framer.feed(bytes) { output in
        switch output {
        case .packet(let packet):
            whole.append(packet.streamOffset)
            sink &+= parseEvent(packet.bytes)
        case .error(let error):
            precondition(error.offset >= 0 && error.offset < size, "error offset outside the stream")
            sink &+= error.bytes.count
        }
    }
    framer.finish { _ in }
    var split: [Int] = []
    var splitFramer = H4Framer(configuration: .init(maximumPacketLength: 1024))
    let cut = size == 0 ? 0 : Int(bytes[0]) % (size + 1)
    for part in [bytes[0..<cut], bytes[cut..<size]] {
        splitFramer.feed(UnsafeRawBufferPointer(rebasing: part)) { output in
            if case .packet(let packet) = output { split.append(packet.streamOffset) }
        }
    }
    precondition(whole == split, "framing depends on chunking")

    // 2. The input as one event packet, and as raw advertising data.
    sink &+= parseEvent(bytes)
    sink &+= parseAdvertisingData(bytes)
    // 3. The input as a capture file: container, records, HCI and sniffer decoding.
    if let capture = try? CaptureFile(bytes: Array(bytes)) {
        let summary = CaptureDecoder().decode(capture) { item in
            switch item {
            case .advertisement(let advertisement):
                sink &+= parseAdvertisingData(advertisement.report.data)
            case .error(let error):
                precondition(error.recordOffset.map { $0 >= 0 && $0 <= size } ?? true, "record offset outside the file")
            }
        }
        sink &+= summary.recordsRead
    }
    // 4. Time: text parsers and arithmetic on arbitrary 64-bit values.
    sink &+= fuzzTime(bytes)
    if sink == 0x5EED_F00D { print(sink) } // keep the work observable
    return 0
}

func parseEvent(_ packet: UnsafeRawBufferPointer) -> Int {
    var sink = 0
    var reports = HCIEventParser.advertisingReports(inEvent: packet)
    do {
        while let report = try reports.next() {
            precondition(report.data.count <= packet.count, "report data larger than its packet")
            if let sighting = BeaconSighting(report: report, timestamp: .epoch) { sink &+= Int(sighting.id.major) }
            sink &+= parseAdvertisingData(report.data)
        }
    } catch {
        precondition(error.offset >= 0 && error.offset <= packet.count, "error offset outside the packet")
        sink &+= error.description.utf8.count
    }
    return sink
}

func parseAdvertisingData(_ data: UnsafeRawBufferPointer) -> Int {
    var sink = 0
    var structures = ADStructureIterator(data)
    while let structure = try? structures.next() {
        switch structure.element {
        case .localName(let name): sink &+= name.string.utf8.count
        case .eddystone(.url(let url)): sink &+= url.url.utf8.count
        case .serviceUUIDs(let list):
            for i in 0..<list.count { sink &+= list.uuid(at: i).hashValue & 1 }
        case .iBeacon(let frame): sink &+= Int(frame.major)
        default: sink &+= 1
        }
    }
    if let frame = BeaconFrame.find(inAdvertisingData: data) { sink &+= Int(frame.id.minor) }
    for layout in BeaconLayout.builtIn {
        if let frame = layout.frame(inAdvertisingData: data) { sink &+= Int(frame.id.minor) }
        if let frame = layout.frame(inStructureData: data) { sink &+= Int(frame.id.minor) }
    }
    return sink
}

/// The input as date-time and duration text, as a records topic, and as 64-bit values through
/// every timestamp constructor and operation: none may trap, and what parses must read back.
func fuzzTime(_ bytes: UnsafeRawBufferPointer) -> Int {
    var sink = 0
    let text = String(decoding: bytes.prefix(64), as: UTF8.self)
    if let time = Timestamp(rfc3339: text) {
        let back = Timestamp(rfc3339: time.rfc3339String)
        precondition(
            back.map { abs($0.nanosecondsSinceEpoch / 1_000_000 - time.nanosecondsSinceEpoch / 1_000_000) <= 1 } ?? false,
            "a parsed time reads back")
        sink &+= time.rfc3339String.utf8.count
    }
    if let duration = Duration(parsing: text) {
        precondition(duration <= Duration.maximumParsed, "a parsed duration within the bound")
        sink &+= duration.humanReadable.utf8.count
    }
    if let origin = SiteTopics(site: "s").origin(ofRecordsTopic: text) { sink &+= origin.bucket }
    guard bytes.count >= 16 else { return sink }
    let a = bytes.loadUnaligned(fromByteOffset: 0, as: Int64.self)
    let b = bytes.loadUnaligned(fromByteOffset: 8, as: Int64.self)
    let times = [
        Timestamp(nanosecondsSinceEpoch: a), Timestamp(microsecondsSinceEpoch: a), Timestamp(seconds: a, nanoseconds: b),
        Timestamp(secondsSinceEpoch: Double(bitPattern: UInt64(bitPattern: b))),
    ]
    for time in times {
        let later = time + .nanoseconds(b)
        let earlier = time - .nanoseconds(b)
        sink &+= Int(truncatingIfNeeded: (later - earlier).nanoseconds)
        sink &+= Int(truncatingIfNeeded: time.duration(to: Timestamp(nanosecondsSinceEpoch: b)).nanoseconds)
        sink &+= time.rfc3339String.utf8.count &+ time.unixSecondsString.utf8.count
        sink &+= Duration.nanoseconds(b).humanReadable.utf8.count
        let record = GatewayRecord(
            beacon: .iBeacon(uuidHigh: 1, uuidLow: 2, major: 3, minor: 4), rssi: Double(bitPattern: UInt64(bitPattern: a)),
            distance: Double(bitPattern: UInt64(bitPattern: b)), accuracy: nil, sampleCount: 1, seen: true, lastSeen: time)
        sink &+= record.rangeProblem(reportTime: later)?.utf8.count ?? 0
    }
    return sink
}

/// Decodes a gateway report, counting its records; the header if it was whole and valid.
func decodeReport(_ bytes: UnsafeRawBufferPointer, _ records: inout Int) throws -> GatewayReportHeader? {
    var found: GatewayReportHeader?
    var count = 0
    try GatewayReportDecoder.decode(bytes, header: { found = $0 }, record: { _ in count += 1 })
    records = count
    if let found { precondition(found.recordCount == count, "a valid report's records match its count") }
    return found
}
