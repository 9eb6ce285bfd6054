import BeaconCore
import BeaconWire
import Testing

@Suite("H4Framer")
struct H4FramerTests {
    /// What the framer produced, in order: packets as (offset, bytes), errors as the error.
    enum Item: Equatable {
        case packet(offset: Int, bytes: [UInt8])
        case error(WireError)
    }

    static func frame(
        _ stream: [UInt8], chunkSizes: some Sequence<Int>,
        configuration: H4Framer.Configuration = .init()
    ) -> [Item] {
        var framer = H4Framer(configuration: configuration)
        var items: [Item] = []
        let collect: (H4Framer.Output) -> Void = { output in
            switch output {
            case .packet(let packet): items.append(.packet(offset: packet.streamOffset, bytes: Array(packet.bytes)))
            case .error(let error): items.append(.error(error))
            }
        }
        stream.withUnsafeBytes { all in
            var start = 0
            var sizes = chunkSizes.makeIterator()
            while start < all.count {
                let size = max(1, sizes.next() ?? all.count)
                let end = min(all.count, start + size)
                framer.feed(UnsafeRawBufferPointer(rebasing: all[start..<end]), collect)
                start = end
            }
        }
        framer.finish(collect)
        return items
    }

    static let mixedStream: [UInt8] =
        AnnotatedPackets.resetCommand + AnnotatedPackets.commandCompleteEvent
        + AnnotatedPackets.aclPacket + AnnotatedPackets.scoPacket + AnnotatedPackets.isoPacket
        + AnnotatedPackets.legacyIBeaconEvent + AnnotatedPackets.extendedDirectedEvent

    @Test("every packet type is framed by its own length field")
    func framesEveryPacketType() {
        let items = Self.frame(Self.mixedStream, chunkSizes: [Int]())
        let expected: [[UInt8]] = [
            AnnotatedPackets.resetCommand, AnnotatedPackets.commandCompleteEvent,
            AnnotatedPackets.aclPacket, AnnotatedPackets.scoPacket, AnnotatedPackets.isoPacket,
            AnnotatedPackets.legacyIBeaconEvent, AnnotatedPackets.extendedDirectedEvent,
        ]
        var offset = 0
        var expectedItems: [Item] = []
        for packet in expected {
            expectedItems.append(.packet(offset: offset, bytes: packet))
            offset += packet.count
        }
        #expect(items == expectedItems)
    }

    @Test("whole, byte by byte and random chunks give the same packets", arguments: SyntheticStream.allCases)
    func chunkingDoesNotMatter(stream: SyntheticStream) throws {
        let bytes = try stream.bytes()
        let whole = Self.frame(bytes, chunkSizes: [Int]())
        let byteByByte = Self.frame(bytes, chunkSizes: repeatElement(1, count: bytes.count))
        var rng = SplitMix64(seed: 42)
        let random = Self.frame(bytes, chunkSizes: (0..<bytes.count).map { _ in Int.random(in: 1...300, using: &rng) })
        #expect(whole.count == 2000) // README: 2,000 event packets
        #expect(!whole.contains { if case .error = $0 { true } else { false } })
        #expect(byteByByte == whole)
        #expect(random == whole)
    }

    @Test("garbage is reported once per run, with its offset and first bytes, and framing resumes")
    func garbageIsSkipped() {
        let garbage: [UInt8] = [0x00, 0xFF, 0x3E, 0x07, 0x06, 0x99, 0x10, 0x20, 0x30, 0x40]
        let stream = AnnotatedPackets.resetCommand + garbage + AnnotatedPackets.commandCompleteEvent
        let expected: [Item] = [
            .packet(offset: 0, bytes: AnnotatedPackets.resetCommand),
            .error(WireError(.unknownPacketType, offset: 4, bytes: Array(garbage.prefix(8)))),
            .packet(offset: 4 + garbage.count, bytes: AnnotatedPackets.commandCompleteEvent),
        ]
        #expect(Self.frame(stream, chunkSizes: [Int]()) == expected)
        #expect(Self.frame(stream, chunkSizes: repeatElement(1, count: stream.count)) == expected)
        #expect(Self.frame(stream, chunkSizes: [3, 5, 2, 7, 1, 100]) == expected)
    }

    @Test("trailing garbage and an incomplete last packet are reported by finish")
    func finishReportsLeftovers() {
        let cut = Array(AnnotatedPackets.legacyIBeaconEvent.prefix(20))
        let items = Self.frame(cut, chunkSizes: [7, 7, 7])
        #expect(items == [.error(WireError(.truncatedPacket, offset: 0, bytes: Array(cut.prefix(8))))])
        let garbageTail = Self.frame(AnnotatedPackets.resetCommand + [0xEE, 0xEF], chunkSizes: [1])
        #expect(garbageTail.last == .error(WireError(.unknownPacketType, offset: 4, bytes: [0xEE, 0xEF])))
    }

    @Test("an announced length above the maximum is rejected and its type byte skipped")
    func oversizedPacketIsSkipped() {
        // ACL header announcing 0x0400 bytes, then a valid reset command.
        let stream: [UInt8] = [0x02, 0x01, 0x00, 0x00, 0x04] + AnnotatedPackets.resetCommand
        let configuration = H4Framer.Configuration(maximumPacketLength: 300)
        let expected: [Item] = [
            .error(WireError(.oversizedPacket, offset: 0, bytes: [0x02, 0x01, 0x00, 0x00, 0x04])),
            // After skipping 0x02: 0x01 0x00 0x00 frames as a command with parameter length 0x04.
            .packet(offset: 1, bytes: [0x01, 0x00, 0x00, 0x04, 0x01, 0x03, 0x0C, 0x00]),
        ]
        #expect(Self.frame(stream, chunkSizes: [Int](), configuration: configuration) == expected)
        #expect(
            Self.frame(stream, chunkSizes: repeatElement(1, count: stream.count), configuration: configuration)
                == expected)
    }

    @Test("random bytes never crash or stall the framer, and every byte is accounted for")
    func randomBytesAreConsumed() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let stream = (0..<Int.random(in: 0...600, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let whole = Self.frame(stream, chunkSizes: [Int]())
            let chunked = Self.frame(stream, chunkSizes: (0..<stream.count).map { _ in Int.random(in: 1...40, using: &rng) })
            #expect(whole == chunked)
            var framer = H4Framer()
            stream.withUnsafeBytes { framer.feed($0) { _ in } }
            #expect(framer.streamOffset == stream.count)
        }
    }

    @Test("valid packets after type-free garbage are all found")
    func packetsAfterGarbageAreFound() {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<200 {
            let garbage = (0..<Int.random(in: 1...200, using: &rng)).map { _ in
                UInt8.random(in: 0x06...0xFF, using: &rng) // no H4 type byte
            }
            let stream = garbage + AnnotatedPackets.legacyIBeaconEvent + AnnotatedPackets.directedEvent
            let packets = Self.frame(stream, chunkSizes: [Int]()).compactMap { item -> [UInt8]? in
                if case .packet(_, let bytes) = item { bytes } else { nil }
            }
            #expect(packets == [AnnotatedPackets.legacyIBeaconEvent, AnnotatedPackets.directedEvent])
        }
    }
}
