import BeaconCore
import BeaconWire
import FoundationEssentials

/// `capture`: reading captures and writing `beacond parse` output, per record / report, over
/// about 1,000,000 records built in memory from the capture fixtures.
enum CaptureBenchmarks {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Tests/BeaconWireTests/Fixtures/Captures").standardized

    static func run() throws -> [BenchResult] {
        var results: [BenchResult] = []

        // btsnoop monitor (2001): 500 × the 2,000 synthetic records.
        let monitor = try CaptureFile(path: fixtures.appendingPathComponent("hci_2k_seed1.monitor.btsnoop").path)
        let encoder = BtsnoopEncoder(datalink: .linuxMonitor)
        var big = encoder.fileHeader
        for _ in 0..<500 {
            monitor.forEachItem { item in
                guard case .record(let record) = item else { return }
                try? encoder.appendRecord(
                    h4Packet: record.bytes, direction: record.direction,
                    timestamp: record.timestamp, to: &big)
            }
        }
        let btsnoop = try CaptureFile(bytes: big)
        let decoder = CaptureDecoder()
        var reports = 0
        results.append(
            try Bench.measure("capture btsnoop 2001: read + HCI decode", items: 1_000_000, unit: "reports") {
                reports = 0
                opaque(decoder).decode(btsnoop) { item in
                    if case .advertisement(let advertisement) = item { reports &+= Int(advertisement.report.eventType & 1) &+ 1 }
                }
                blackHole(reports)
            })

        // pcapng nRF Sniffer (272): the 832 packet blocks repeated 1,200 times.
        let sniffer = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent("mitll_anechoic_nrf52_0deg.pcapng")))
        let firstPacket = 0x120 // SHB (0xC0) + IDB (0x60), little-endian, read with xxd
        var pcapng = Array(sniffer[0..<firstPacket])
        for _ in 0..<1_200 { pcapng += sniffer[firstPacket...] }
        let snifferFile = try CaptureFile(bytes: pcapng)
        results.append(
            try Bench.measure("capture pcapng 272: read + sniffer + LL decode", items: 832 * 1_200, unit: "PDUs") {
                reports = 0
                opaque(decoder).decode(snifferFile) { item in
                    if case .advertisement = item { reports &+= 1 }
                }
                blackHole(reports)
            })

        // Output: the decoded reports of the btsnoop file as CSV and as JSON lines.
        for format in [AdvertisementOutputFormat.csv, .jsonLines] {
            let buffer = OutputBuffer(capacity: 1 << 17)
            let csv = AdvertisementCSVWriter()
            let json = AdvertisementJSONLinesWriter()
            var bytes = 0
            results.append(
                try Bench.measure("capture output \(format.rawValue): AD facts + row", items: 1_000_000, unit: "reports") {
                    bytes = 0
                    decoder.decode(btsnoop) { item in
                        guard case .advertisement(let advertisement) = item else { return }
                        let facts = AdvertisementFacts(data: advertisement.report.data)
                        if format == .csv {
                            csv.append(advertisement, facts: facts, to: buffer)
                        } else {
                            json.append(advertisement, facts: facts, to: buffer)
                        }
                        if buffer.count >= 1 << 16 {
                            bytes &+= buffer.count
                            buffer.removeAll()
                        }
                    }
                    blackHole(bytes)
                })
        }
        return results
    }
}
