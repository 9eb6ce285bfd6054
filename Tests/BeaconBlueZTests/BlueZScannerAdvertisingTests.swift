import BeaconBlueZ
import BeaconCore
import FoundationEssentials
import Testing

/// A scanner that also advertises (a site gateway with `site.advertise: true`): the advertising
/// commands follow the scan command set, a refusal leaves scanning on, and an orderly stop
/// switches advertising off before scanning.
@Suite("BlueZScanner advertising")
struct BlueZScannerAdvertisingTests {
    static let advertising = try! BeaconAdvertising(identity: BeaconAdvertisingTests.identity)
    let configuration = BlueZScannerConfiguration(
        adapter: .index(0), advertising: Self.advertising, pollInterval: .milliseconds(5))
    let report: [UInt8] = [0x04, 0x3E, 0x03, 0x02, 0x01, 0x00]

    @Test("HCI 4.2: legacy advertising after legacy scanning; stopped first on an orderly stop")
    func legacy() async throws {
        let transport = FakeHCITransport(controller: .init(hciVersion: 0x08), sessions: [[.packet(report)]])
        let run = await runScanner(configuration, transport: transport, clock: AutoAdvancingClock(), stopAfter: 1)
        #expect(run.error == nil)
        #expect(run.packets == [report])
        #expect(transport.commandOpcodes == [0x1001, 0x200B, 0x200C, 0x2006, 0x2008, 0x200A, 0x200A, 0x200C])
        #expect(transport.calls.filter { $0.hasPrefix("write 01 0a 20") } == ["write 01 0a 20 01 01", "write 01 0a 20 01 00"])
        #expect(run.events.contains(.advertising(adapter: "hci0", Self.advertising, commands: .legacy)))
        #expect(run.events.contains(.advertisingStopped(adapter: "hci0")))
        #expect(run.events.contains(.stopped(adapter: "hci0")))
        #expect(run.events.allSatisfy { $0.level == .info })
    }

    @Test("HCI 5.0 with LE Extended Advertising: extended advertising after extended scanning")
    func extended() async throws {
        let controller = FakeHCITransport.Controller(hciVersion: 0x09, leFeatures: 0x1000)
        let transport = FakeHCITransport(controller: controller, sessions: [[.packet(report)]])
        let run = await runScanner(configuration, transport: transport, clock: AutoAdvancingClock(), stopAfter: 1)
        #expect(run.packets == [report])
        #expect(
            transport.commandOpcodes == [0x1001, 0x2003, 0x2041, 0x2042, 0x2036, 0x2037, 0x2039, 0x2039, 0x2042])
        #expect(run.events.contains(.advertising(adapter: "hci0", Self.advertising, commands: .extended)))
    }

    @Test("Extended scanning disallowed: the scanner falls back to legacy, and so does advertising")
    func followsFallback() async throws {
        let controller = FakeHCITransport.Controller(hciVersion: 0x0D, leFeatures: 0x1000, statuses: [0x2041: 0x0C])
        let transport = FakeHCITransport(controller: controller, sessions: [[.packet(report)]])
        let run = await runScanner(configuration, transport: transport, clock: AutoAdvancingClock(), stopAfter: 1)
        #expect(run.packets == [report])
        #expect(
            transport.commandOpcodes == [0x1001, 0x2003, 0x2041, 0x200B, 0x200C, 0x2006, 0x2008, 0x200A, 0x200A, 0x200C])
    }

    @Test(
        "The controller refuses to advertise: one warning that says what failed, and scanning goes on",
        arguments: [(UInt16(0x2006), UInt8(0x0C)), (0x2008, 0x12), (0x200A, 0x0C)])
    func refusal(opcode: UInt16, status: UInt8) async throws {
        let controller = FakeHCITransport.Controller(hciVersion: 0x08, statuses: [opcode: status])
        let transport = FakeHCITransport(controller: controller, sessions: [[.packet(report)]])
        let run = await runScanner(configuration, transport: transport, clock: AutoAdvancingClock(), stopAfter: 1)
        #expect(run.error == nil)
        #expect(run.packets == [report])
        let sent: [UInt16] = [0x2006, 0x2008, 0x200A].filter { $0 <= opcode }
        // Advertising never came on: nothing to switch off at the stop.
        #expect(transport.commandOpcodes == [0x1001, 0x200B, 0x200C] + sent + [0x200C])
        let refusal = BlueZScannerError.commandFailed(
            adapter: "hci0", command: HCIOpcode(rawValue: opcode), status: HCIStatus(rawValue: status))
        let warnings = run.events.filter { $0.level >= .warning }
        #expect(warnings == [.advertisingRefused(adapter: "hci0", refusal)])
        #expect(warnings.first?.description.contains("scanning goes on") == true)
        #expect(warnings.first?.description.contains("site.advertise: false") == true)
        #expect(run.events.contains(.stopped(adapter: "hci0")))
        #expect(!run.events.contains(.advertisingStopped(adapter: "hci0")))
    }

    @Test("Through a socket pair: the exact command bytes in order, and the reports after them")
    func socketPair() async throws {
        let packets = [report, [0x04, 0x3E, 0x04, 0x02, 0x01, 0x00, 0x01]]
        let transport = SocketPairTransport()
        let controller = SocketPairController(descriptor: transport.controllerEnd, packets: packets, startOn: 0x200A)
        controller.start()
        let run = await runScanner(configuration, transport: transport, clock: ManualClock(), stopAfter: packets.count)
        let commands = controller.join()
        #expect(run.error == nil)
        #expect(run.packets == packets)
        let data = [0x01, 0x08, 0x20, 0x20, 0x1E] + BeaconAdvertisingTests.advertisingData + [0x00]
        #expect(
            commands == [
                [0x01, 0x01, 0x10, 0x00], // Read Local Version
                [0x01, 0x0B, 0x20, 0x07, 0x00, 0xA0, 0x00, 0xA0, 0x00, 0x00, 0x00], // scan parameters
                [0x01, 0x0C, 0x20, 0x02, 0x01, 0x00], // scan enable
                [0x01, 0x06, 0x20, 0x0F, 0xA0, 0x00, 0xA0, 0x00, 0x03, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0x07, 0x00],
                data, // LE Set Advertising Data
                [0x01, 0x0A, 0x20, 0x01, 0x01], // advertising on
                [0x01, 0x0A, 0x20, 0x01, 0x00], // advertising off on stop
                [0x01, 0x0C, 0x20, 0x02, 0x00, 0x00], // then scanning off
            ])
    }
}
