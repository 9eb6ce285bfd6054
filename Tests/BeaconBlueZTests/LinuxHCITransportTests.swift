import BeaconBlueZ
import BeaconCore
import Foundation
import Testing

/// The real read path (poll + recv in ``LinuxHCITransport``, the scanner's read thread and
/// batching) fed recorded HCI events through a `socketpair(AF_UNIX, SOCK_SEQPACKET)`, with a
/// controller thread on the other end answering the scanner's commands.
@Suite("LinuxHCITransport")
struct LinuxHCITransportTests {
    /// Splits a raw H4 event stream at its own length bytes: packet length = byte 2 + 3.
    static func framed(_ data: [UInt8]) -> [[UInt8]] {
        var packets: [[UInt8]] = []
        var offset = 0
        while offset + 3 <= data.count {
            let length = Int(data[offset + 2]) + 3
            packets.append(Array(data[offset..<(offset + length)]))
            offset += length
        }
        return packets
    }

    static func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "raw", subdirectory: "Fixtures"))
        return Array(try Data(contentsOf: url))
    }

    @Test(
        "2,000 recorded events arrive intact, in order, stamped by the injected clock",
        arguments: ["hci_2k_seed1", "hci_2k_seed1_ext"])
    func recordedEventsThroughSocketPair(fixture: String) async throws {
        let packets = Self.framed(try Self.fixture(fixture))
        #expect(packets.count == 2_000)
        let transport = SocketPairTransport()
        let controller = SocketPairController(descriptor: transport.controllerEnd, packets: packets)
        controller.start()
        let clock = ManualClock(start: Timestamp(nanosecondsSinceEpoch: 1_735_689_600_000_000_000))
        let configuration = BlueZScannerConfiguration(adapter: .index(0), pollInterval: .milliseconds(50))
        let run = await runScanner(configuration, transport: transport, clock: clock, stopAfter: packets.count)
        let commands = controller.join()

        #expect(run.error == nil)
        #expect(run.packets.count == packets.count)
        #expect(run.packets == packets)
        #expect(run.timestamps.allSatisfy { $0 == clock.now })
        #expect(run.linkTypes == [.hciH4])
        #expect(run.batches < packets.count) // reads were batched
        #expect(
            commands == [
                [0x01, 0x01, 0x10, 0x00], // Read Local Version
                [0x01, 0x0B, 0x20, 0x07, 0x00, 0xA0, 0x00, 0xA0, 0x00, 0x00, 0x00], // scan parameters
                [0x01, 0x0C, 0x20, 0x02, 0x01, 0x00], // enable
                [0x01, 0x0C, 0x20, 0x02, 0x00, 0x00], // disable on stop
            ])
        #expect(transport.filtersSet == [.commandResponses, .leMeta, .commandResponses, transport.originalFilter])
    }
}
