import BeaconCore
import BeaconWire
import CReferenceParser
import FoundationEssentials

/// `parse`: H4 framing + advertising report parsing + iBeacon decode into `BeaconSighting`, per
/// report, over ≥ 1,000,000 reports built by repeating the synthetic BlueZ streams in memory;
/// and the same work done by a minimal C parser (Sources/CReferenceParser) for reference.
enum ParseBenchmarks {
    /// Where the synthetic streams are (the test fixtures, copied from shared/data/synthetic).
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Tests/BeaconWireTests/Fixtures").standardized

    static func run() throws -> [BenchResult] {
        var results: [BenchResult] = []
        for (name, file) in [("legacy", "hci_2k_seed1.raw"), ("extended", "hci_2k_seed1_ext.raw")] {
            let sample = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(file)))
            let repetitions = 500 // 2,000 reports per sample → 1,000,000 reports
            var stream: [UInt8] = []
            stream.reserveCapacity(sample.count * repetitions)
            for _ in 0..<repetitions { stream += sample }
            let reports = 2000 * repetitions

            var swiftTotals = (reports: 0, sightings: 0, sumMajor: 0, sumRSSI: 0, sumUUIDHigh32: 0, addressXor: UInt64(0))
            let swift = Bench.measure(
                "parse \(name): frame + reports + iBeacon → BeaconSighting (Swift)",
                items: reports, unit: "reports", repetitions: 20
            ) {
                swiftTotals = parseSwift(opaque(stream))
            }
            var cTotals = beacond_c_totals()
            let c = Bench.measure("parse \(name): same work in C (reference)", items: reports, unit: "reports", repetitions: 20) {
                cTotals = beacond_c_totals()
                opaque(stream).withUnsafeBufferPointer { beacond_c_parse($0.baseAddress, $0.count, &cTotals) }
                blackHole(cTotals)
            }
            precondition(swiftTotals.reports == reports && Int(cTotals.reports) == reports, "report count")
            precondition(swiftTotals.sightings == Int(cTotals.ibeacons), "Swift and C disagree on iBeacons")
            precondition(swiftTotals.sumMajor == Int(cTotals.sum_major), "Swift and C disagree on majors")
            precondition(swiftTotals.sumRSSI == Int(cTotals.sum_rssi), "Swift and C disagree on RSSI")
            precondition(swiftTotals.sumUUIDHigh32 == Int(cTotals.sum_uuid_hi32), "Swift and C disagree on UUIDs")
            precondition(swiftTotals.addressXor == cTotals.address_xor, "Swift and C disagree on addresses")
            var swiftResult = swift
            swiftResult.extra = [
                ("Swift/C speed", Bench.format(c.itemsPerSecond > 0 ? swift.itemsPerSecond / c.itemsPerSecond : 0, 2))
            ]
            // Where the time goes: framing alone, then framing + report walk (no AD decode).
            var packets = 0
            let framing = Bench.measure("parse \(name): H4 framing only", items: reports, unit: "reports", repetitions: 20) {
                packets = 0
                var framer = H4Framer()
                opaque(stream).withUnsafeBytes { framer.feed($0) { if case .packet = $0 { packets &+= 1 } } }
            }
            var walked = 0
            let walking = Bench.measure(
                "parse \(name): framing + report walk", items: reports, unit: "reports",
                repetitions: 20
            ) {
                walked = 0
                var framer = H4Framer()
                opaque(stream).withUnsafeBytes {
                    framer.feed($0) { output in
                        guard case .packet(let packet) = output else { return }
                        var iterator = HCIEventParser.advertisingReports(inEvent: packet.bytes)
                        while let report = try? iterator.next() { walked &+= report.data.count }
                    }
                }
            }
            precondition(packets == reports && walked > 0, "framing benchmark lost packets")
            // The same decode through the declarative layouts (what a configured vendor frame costs).
            var layoutSightings = 0
            let layouts = Bench.measure(
                "parse \(name): frame + reports + built-in frames as layouts (BeaconLayout)",
                items: reports, unit: "reports", repetitions: 20
            ) {
                layoutSightings = parseLayouts(opaque(stream))
            }
            precondition(layoutSightings == swiftTotals.sightings, "the layouts and the decoders disagree on iBeacons")
            results += [swiftResult, c, framing, walking, layouts]
        }
        return results
    }

    /// Frame, walk reports, decode with the three built-in layouts; counts iBeacon frames.
    @inline(never)
    static func parseLayouts(_ stream: [UInt8]) -> Int {
        var iBeacons = 0
        var framer = H4Framer()
        let layouts = BeaconLayout.builtIn
        stream.withUnsafeBytes { bytes in
            framer.feed(bytes) { output in
                guard case .packet(let packet) = output else { return }
                var reports = HCIEventParser.advertisingReports(inEvent: packet.bytes)
                while let report = try? reports.next() {
                    for layout in layouts {
                        if let frame = layout.frame(inAdvertisingData: report.data) {
                            if frame.id.kind == .iBeacon { iBeacons &+= 1 }
                            break
                        }
                    }
                }
            }
        }
        return iBeacons
    }

    /// The per-report work the ranging loop's feed does: frame, walk reports, decode iBeacon.
    @inline(never)
    static func parseSwift(_ stream: [UInt8])
        -> (reports: Int, sightings: Int, sumMajor: Int, sumRSSI: Int, sumUUIDHigh32: Int, addressXor: UInt64)
    {
        var totals = (reports: 0, sightings: 0, sumMajor: 0, sumRSSI: 0, sumUUIDHigh32: 0, addressXor: UInt64(0))
        var framer = H4Framer()
        let now = Timestamp(nanosecondsSinceEpoch: 1_735_689_600_000_000_000)
        stream.withUnsafeBytes { bytes in
            framer.feed(bytes) { output in
                guard case .packet(let packet) = output else { return }
                var reports = HCIEventParser.advertisingReports(inEvent: packet.bytes)
                while let report = try? reports.next() {
                    totals.reports &+= 1
                    if let sighting = BeaconSighting(report: report, timestamp: now), sighting.id.kind == .iBeacon {
                        totals.sightings &+= 1
                        totals.sumMajor &+= Int(sighting.id.major)
                        totals.sumRSSI &+= Int(sighting.rssi ?? 0)
                        // Consume the rest of the sighting as the C reference does (no opaque call).
                        totals.sumUUIDHigh32 &+= Int(sighting.id.high >> 32)
                        totals.addressXor ^= sighting.address.rawValue
                    }
                }
            }
        }
        return totals
    }
}
