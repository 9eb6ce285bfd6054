import BeaconCore
import BeaconWire
import Testing

@Suite("HCIEventParser")
struct HCIEventParserTests {
    /// Totals over every report of a stream, for comparison with the generator's truth file.
    struct Totals: Equatable {
        var packets = 0
        var reports = 0
        var errors = 0
        var iBeacons = 0
        var eddystoneUIDs = 0
        var eddystoneURLs = 0
        var sumMajor = 0
        var sumMinor = 0
        var sumPower = 0
        var sumRSSI = 0
        var sumUUIDHigh32 = 0
    }

    static func totals(of stream: [UInt8]) -> Totals {
        var totals = Totals()
        var framer = H4Framer()
        stream.withUnsafeBytes { bytes in
            framer.feed(bytes) { output in
                guard case .packet(let packet) = output else {
                    totals.errors += 1
                    return
                }
                totals.packets += 1
                do {
                    try HCIEventParser.forEachAdvertisingReport(inEvent: packet.bytes) { report in
                        totals.reports += 1
                        var structures = report.adStructures
                        while let structure = try structures.next() {
                            switch structure.element {
                            case .iBeacon(let frame):
                                totals.iBeacons += 1
                                totals.sumMajor += Int(frame.major)
                                totals.sumMinor += Int(frame.minor)
                                totals.sumPower += Int(frame.measuredPower)
                                totals.sumRSSI += Int(report.rssi ?? 0)
                                totals.sumUUIDHigh32 += Int(frame.uuidHigh >> 32)
                            case .eddystone(.uid): totals.eddystoneUIDs += 1
                            case .eddystone(.url): totals.eddystoneURLs += 1
                            default: break
                            }
                        }
                    }
                } catch {
                    totals.errors += 1
                }
            }
        }
        return totals
    }

    @Test("every report of the synthetic streams decodes to the generator's sums", arguments: SyntheticStream.allCases)
    func syntheticStreamMatchesTruth(stream: SyntheticStream) throws {
        let bytes = try stream.bytes()
        let truth = try stream.truth()
        #expect(bytes.count == truth.bytes_raw)
        let totals = Self.totals(of: bytes)
        #expect(totals.errors == 0)
        #expect(totals.packets == truth.reports)
        #expect(totals.reports == truth.reports)
        #expect(totals.iBeacons == truth.ibeacon_reports)
        #expect(totals.iBeacons == truth.by_kind["ibeacon"])
        #expect(totals.eddystoneUIDs == truth.by_kind["eddystone_uid"])
        #expect(totals.eddystoneURLs == truth.by_kind["eddystone_url"])
        #expect(totals.sumMajor == truth.sum_major)
        #expect(totals.sumMinor == truth.sum_minor)
        #expect(totals.sumPower == truth.sum_power)
        #expect(totals.sumRSSI == truth.sum_rssi)
        #expect(totals.sumUUIDHigh32 == truth.sum_uuid_hi32)
    }

    @Test(
        "sightings: one per iBeacon report, with the report's RSSI and the frame's identity",
        arguments: SyntheticStream.allCases)
    func sightingsMatchTruth(stream: SyntheticStream) throws {
        let bytes = try stream.bytes()
        let truth = try stream.truth()
        var iBeaconSightings = 0
        var sumRSSI = 0
        var sumMajor = 0
        var framer = H4Framer()
        bytes.withUnsafeBytes { all in
            framer.feed(all) { output in
                guard case .packet(let packet) = output else { return }
                try? HCIEventParser.forEachAdvertisingReport(inEvent: packet.bytes) { report in
                    guard let sighting = BeaconSighting(report: report, timestamp: .epoch),
                        sighting.id.kind == .iBeacon
                    else { return }
                    iBeaconSightings += 1
                    sumRSSI += Int(sighting.rssi ?? 0)
                    sumMajor += Int(sighting.id.major)
                }
            }
        }
        #expect(iBeaconSightings == truth.ibeacon_reports)
        #expect(sumRSSI == truth.sum_rssi)
        #expect(sumMajor == truth.sum_major)
    }

    @Test("the legacy and extended streams carry the same adverts, so they give the same sightings")
    func legacyAndExtendedAgree() throws {
        func sightings(_ stream: SyntheticStream) throws -> [BeaconSighting] {
            var out: [BeaconSighting] = []
            var framer = H4Framer()
            try stream.bytes().withUnsafeBytes { all in
                framer.feed(all) { output in
                    guard case .packet(let packet) = output else { return }
                    try? HCIEventParser.forEachAdvertisingReport(inEvent: packet.bytes) { report in
                        if let sighting = BeaconSighting(report: report, timestamp: .epoch) { out.append(sighting) }
                    }
                }
            }
            return out
        }
        let legacy = try sightings(.legacy)
        let extended = try sightings(.extended)
        let truth = try SyntheticStream.legacy.truth()
        #expect(legacy.count == truth.ibeacon_reports + (truth.by_kind["eddystone_uid"] ?? -1))
        #expect(legacy == extended)
    }

    /// The synthetic stream's packets, one array each.
    static func packets(of stream: [UInt8]) -> [[UInt8]] {
        var packets: [[UInt8]] = []
        var framer = H4Framer()
        stream.withUnsafeBytes { framer.feed($0) { if case .packet(let p) = $0 { packets.append(Array(p.bytes)) } } }
        return packets
    }

    @Test("thousands of random buffers and mutated packets: no crash, and the next valid packet still parses")
    func randomAndMutatedInput() throws {
        let valid = Self.packets(of: try SyntheticStream.legacy.bytes()) + Self.packets(of: try SyntheticStream.extended.bytes())
        var rng = SplitMix64(seed: 2024)
        var errors = 0
        for round in 0..<6000 {
            var packet: [UInt8]
            if round % 3 == 0 {
                packet = (0..<Int.random(in: 0...80, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                if packet.count > 1, Bool.random(using: &rng) {
                    packet[0] = 0x04
                    packet[1] = 0x3E
                }
            } else {
                packet = valid.randomElement(using: &rng)!
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: packet[Int.random(in: 0..<packet.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                    case 1: packet.removeLast(Int.random(in: 0...min(8, packet.count - 1), using: &rng))
                    default: packet.append(UInt8.random(in: 0...255, using: &rng))
                    }
                }
            }
            packet.withUnsafeBytes { bytes in
                do {
                    try HCIEventParser.forEachAdvertisingReport(inEvent: bytes) { report in
                        _ = BeaconSighting(report: report, timestamp: .epoch)
                        var structures = report.adStructures
                        while let structure = try structures.next() { _ = structure.element }
                    }
                } catch let error as WireError {
                    errors += 1
                    #expect(error.offset >= 0 && error.offset <= bytes.count)
                } catch {
                    Issue.record("unexpected error \(error)")
                }
            }
            // The next good packet parses in full.
            let good = valid[round % valid.count]
            let (reports, error) = AdvertisingReportIteratorTests.parse(good)
            #expect(error == nil && reports.count == 1)
        }
        #expect(errors > 1000) // the mutations do hit the checks
    }

    @Test("a garbage-laden stream still yields the valid packets that follow the garbage")
    func streamWithGarbage() throws {
        let valid = Self.packets(of: try SyntheticStream.legacy.bytes())
        var rng = SplitMix64(seed: 5)
        var stream: [UInt8] = []
        for packet in valid.prefix(300) {
            stream += (0..<Int.random(in: 0...12, using: &rng)).map { _ in UInt8.random(in: 0x06...0xFF, using: &rng) }
            stream += packet
        }
        let framed = Self.packets(of: stream)
        #expect(framed == Array(valid.prefix(300)))
    }
}
