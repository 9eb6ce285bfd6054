import BeaconCore
import BeaconWire
import Testing

/// Regression guard for issue 30's speed work on the parse path: on valid, mutated and random
/// input the fast framer, report iterator, AD walk and beacon lookup give exactly what the
/// checked, byte-by-byte reference (``ReferenceReportParser``) and byte-by-byte feeding give.
@Suite("Parser equivalence with the reference implementation")
struct ReportParserEquivalenceTests {
    /// Everything the fast iterator yields for `packet`, in the reference's terms.
    static func items(_ packet: UnsafeRawBufferPointer) -> [ReferenceReportParser.Item] {
        var items: [ReferenceReportParser.Item] = []
        var iterator = HCIEventParser.advertisingReports(inEvent: packet)
        do throws(WireError) {
            while let report = try iterator.next() { items.append(.report(AdvertisingReportIteratorTests.Fields(report))) }
        } catch {
            items.append(.error(error))
        }
        #expect((try? iterator.next()) == nil, "the iterator is finished after its last item")
        return items
    }

    /// The AD structures of `data` (type, bytes, offset) and the error that ended them.
    static func structures(_ data: UnsafeRawBufferPointer) -> (structures: [[Int]], error: WireError?) {
        var found: [[Int]] = []
        var iterator = ADStructureIterator(data)
        do throws(WireError) {
            while let structure = try iterator.next() {
                found.append([structure.offset, Int(structure.type.rawValue)] + structure.data.map { Int($0) })
            }
            return (found, nil)
        } catch {
            return (found, error)
        }
    }

    /// The reference AD walk: length byte, type, data; zero length ends; overrun is an error.
    static func referenceStructures(_ data: UnsafeRawBufferPointer) -> (structures: [[Int]], error: WireError?) {
        var found: [[Int]] = []
        var p = 0
        while p < data.count {
            let length = Int(data[p])
            if length == 0 { break }
            guard data.count - p > length else {
                return (found, ReferenceReportParser.error(.truncatedADStructure, p, data))
            }
            found.append([p, Int(data[p + 1])] + data[(p + 2)..<(p + 1 + length)].map { Int($0) })
            p += 1 + length
        }
        return (found, nil)
    }

    /// Checks one event packet against the reference, and the AD data of each of its reports.
    static func check(_ packet: [UInt8]) {
        packet.withUnsafeBytes { bytes in
            let fast = items(bytes)
            #expect(fast == ReferenceReportParser.items(inEvent: bytes), "packet \(packet)")
            var iterator = HCIEventParser.advertisingReports(inEvent: bytes)
            while let report = try? iterator.next() {
                #expect(
                    BeaconFrame.find(inAdvertisingData: report.data)
                        == ReferenceReportParser.frame(inAdvertisingData: report.data))
                let (structures, error) = structures(report.data)
                let (expected, expectedError) = referenceStructures(report.data)
                #expect(structures == expected && error == expectedError)
            }
        }
    }

    static func validPackets() throws -> [[UInt8]] {
        try HCIEventParserTests.packets(of: SyntheticStream.legacy.bytes())
            + HCIEventParserTests.packets(of: SyntheticStream.extended.bytes())
    }

    @Test("every packet of the synthetic streams, as is")
    func validPacketsMatch() throws {
        for packet in try Self.validPackets() { Self.check(packet) }
    }

    @Test("mutated packets (bytes changed in the header, the report and the AD data; cut; extended) and random buffers")
    func mutatedPacketsMatch() throws {
        let valid = try Self.validPackets()
        var rng = SplitMix64(seed: 30)
        for round in 0..<20_000 {
            var packet: [UInt8]
            if round % 4 == 0 {
                packet = (0..<Int.random(in: 0...90, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                if packet.count > 4 {
                    packet[0] = 0x04
                    packet[1] = 0x3E
                    packet[3] = [0x02, 0x0B, 0x0D].randomElement(using: &rng)!
                    if Bool.random(using: &rng) { packet[2] = UInt8(truncatingIfNeeded: packet.count - 3) }
                }
            } else {
                packet = valid.randomElement(using: &rng)!
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    let at = Int.random(in: 0..<packet.count, using: &rng)
                    switch Int.random(in: 0..<5, using: &rng) {
                    case 0: packet[at] = UInt8.random(in: 0...255, using: &rng)
                    case 1: packet[min(at, 8)] = UInt8.random(in: 0...255, using: &rng) // header, counts, types
                    case 2: packet.removeLast(Int.random(in: 0...min(8, packet.count - 1), using: &rng))
                    case 3: packet.append(UInt8.random(in: 0...255, using: &rng))
                    default: packet[at] = [0x00, 0x01, 0x02, 0x03, 0x16, 0x1A, 0x1B, 0xFE, 0xFF].randomElement(using: &rng)!
                    }
                }
                // Half the time, keep the event's length byte right so the parse gets past the header.
                if packet.count >= 3, Bool.random(using: &rng) { packet[2] = UInt8(truncatingIfNeeded: packet.count - 3) }
            }
            Self.check(packet)
        }
    }

    @Test("a stream of mutated packets and garbage frames alike whole and byte by byte, with a small maximum")
    func framingMatchesByteByByte() throws {
        let valid = try Self.validPackets()
        var rng = SplitMix64(seed: 31)
        var stream: [UInt8] = []
        for _ in 0..<3000 {
            var packet = valid.randomElement(using: &rng)!
            if Int.random(in: 0..<4, using: &rng) == 0 {
                packet[Int.random(in: 0..<packet.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            stream += (0..<Int.random(in: 0...3, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            stream += packet
        }
        let configuration = H4Framer.Configuration(maximumPacketLength: 48)
        func frame(_ chunks: [ArraySlice<UInt8>]) -> [String] {
            var framer = H4Framer(configuration: configuration)
            var out: [String] = []
            let record: (H4Framer.Output) -> Void = { output in
                switch output {
                case .packet(let p): out.append("packet \(p.streamOffset) \(p.type) \(Array(p.bytes))")
                case .error(let e): out.append("error \(e)")
                }
            }
            for chunk in chunks { chunk.withUnsafeBytes { framer.feed($0, record) } }
            framer.finish(record)
            return out
        }
        let whole = frame([stream[...]])
        #expect(whole.count > 3000)
        #expect(whole == frame(stream.indices.map { stream[$0...$0] }))
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + Int.random(in: 1...200, using: &rng))
            chunks.append(stream[start..<end])
            start = end
        }
        #expect(whole == frame(chunks))
    }
}
