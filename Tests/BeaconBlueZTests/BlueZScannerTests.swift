import BeaconBlueZ
import BeaconCore
import Dispatch
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("BlueZScanner")
struct BlueZScannerTests {
    let configuration = BlueZScannerConfiguration(adapter: .index(0), pollInterval: .milliseconds(5))
    let report1: [UInt8] = [0x04, 0x3E, 0x03, 0x02, 0x01, 0x00]
    let report2: [UInt8] = [0x04, 0x3E, 0x04, 0x02, 0x01, 0x00, 0x01]
    let report3: [UInt8] = [0x04, 0x3E, 0x05, 0x02, 0x01, 0x00, 0x01, 0x02]

    @Test("HCI 4.2 controller: legacy commands, LE Meta filter while scanning, orderly stop")
    func legacyController() async throws {
        let clock = AutoAdvancingClock()
        let transport = FakeHCITransport(controller: .init(hciVersion: 0x08), sessions: [[.packet(report1), .packet(report2)]])
        let run = await runScanner(configuration, transport: transport, clock: clock, stopAfter: 2)
        #expect(run.error == nil)
        #expect(run.packets == [report1, report2])
        #expect(run.timestamps == [clock.now, clock.now])
        #expect(run.linkTypes == [.hciH4])
        #expect(transport.commandOpcodes == [0x1001, 0x200B, 0x200C, 0x200C])
        let writes = transport.calls.filter { $0.hasPrefix("write 01 0c 20") }
        #expect(writes == ["write 01 0c 20 02 01 00", "write 01 0c 20 02 00 00"]) // enable, then disable
        let filters = transport.calls.filter { $0.hasPrefix("setFilter") }
        #expect(
            filters == [
                "setFilter \(HCIFilter.commandResponses)", "setFilter \(HCIFilter.leMeta)",
                "setFilter \(HCIFilter.commandResponses)", "setFilter \(FakeHCITransport.initialFilter)",
            ])
        #expect(transport.calls.first == "open" && transport.calls.last == "close")
        #expect(run.events.contains(.stopped(adapter: "hci0")))
    }

    @Test("HCI 5.0 controller with LE Extended Advertising: extended commands")
    func extendedController() async throws {
        let controller = FakeHCITransport.Controller(hciVersion: 0x09, leFeatures: 0x1000)
        let transport = FakeHCITransport(controller: controller, sessions: [[.packet(report1)]])
        let run = await runScanner(configuration, transport: transport, clock: AutoAdvancingClock(), stopAfter: 1)
        #expect(run.packets == [report1])
        #expect(transport.commandOpcodes == [0x1001, 0x2003, 0x2041, 0x2042, 0x2042])
        let started = run.events.first { if case .started = $0 { true } else { false } }
        guard case .started(_, let version, let commands, _) = started else {
            Issue.record("no start event")
            return
        }
        #expect(version.hciVersion == 0x09)
        #expect(commands == .extended)
    }

    @Test("HCI 5.0 without the feature bit: legacy")
    func bluetooth5WithoutFeature() async throws {
        let controller = FakeHCITransport.Controller(hciVersion: 0x09, leFeatures: 0x0FFF)
        let transport = FakeHCITransport(controller: controller, sessions: [[.packet(report1)]])
        _ = await runScanner(configuration, transport: transport, clock: AutoAdvancingClock(), stopAfter: 1)
        #expect(transport.commandOpcodes == [0x1001, 0x2003, 0x200B, 0x200C, 0x200C])
    }

    @Test("Extended answered Command Disallowed: falls back to legacy and logs it")
    func extendedDisallowedFallsBack() async throws {
        let controller = FakeHCITransport.Controller(hciVersion: 0x0D, leFeatures: 0x1000, statuses: [0x2041: 0x0C])
        let transport = FakeHCITransport(controller: controller, sessions: [[.packet(report1)]])
        let run = await runScanner(configuration, transport: transport, clock: AutoAdvancingClock(), stopAfter: 1)
        #expect(run.packets == [report1])
        #expect(transport.commandOpcodes == [0x1001, 0x2003, 0x2041, 0x200B, 0x200C, 0x200C])
        #expect(
            run.events.contains(
                .fellBack(
                    from: .extended, to: .legacy, command: .leSetExtendedScanParameters,
                    status: .commandDisallowed)))
    }

    @Test("Legacy answered Command Disallowed on an extended-capable controller: switches to extended")
    func legacyDisallowedSwitches() async throws {
        let controller = FakeHCITransport.Controller(hciVersion: 0x09, leFeatures: 0x1000, statuses: [0x200B: 0x0C])
        let transport = FakeHCITransport(controller: controller, sessions: [[.packet(report1)]])
        let forcedLegacy = BlueZScannerConfiguration(
            adapter: .index(0), commandSet: .legacy,
            pollInterval: .milliseconds(5))
        let run = await runScanner(forcedLegacy, transport: transport, clock: AutoAdvancingClock(), stopAfter: 1)
        #expect(run.packets == [report1])
        #expect(transport.commandOpcodes == [0x1001, 0x2003, 0x200B, 0x2041, 0x2042, 0x2042])
    }

    @Test("Adapter unplugged mid-scan: reopens with doubling backoff on the injected clock, logging each step")
    func recoversFromUnplug() async throws {
        let clock = AutoAdvancingClock()
        let start = clock.now
        let hci0 = [HCIAdapterInfo(index: 0, isUp: true)]
        let transport = FakeHCITransport(
            sessions: [[.packet(report1), .packet(report2), .fail(ENODEV)], [.packet(report3)]],
            adapterLists: [hci0, [], [], hci0])
        let run = await runScanner(configuration, transport: transport, clock: clock, stopAfter: 3)
        #expect(run.error == nil)
        #expect(run.packets == [report1, report2, report3])
        #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(4)])
        #expect(run.timestamps.last == start + .seconds(7))
        let lost = BlueZScannerError.adapterLost(adapter: "hci0", HCISystemError(.read, errno: ENODEV))
        let missing = BlueZScannerError.noSuchAdapter(requested: "hci0", available: [])
        let recovery = run.events.filter { $0.level >= .warning }
        #expect(
            recovery == [
                .sessionLost(lost),
                .reopenScheduled(attempt: 1, delay: .seconds(1)), .reopenFailed(attempt: 1, missing),
                .reopenScheduled(attempt: 2, delay: .seconds(2)), .reopenFailed(attempt: 2, missing),
                .reopenScheduled(attempt: 3, delay: .seconds(4)),
            ])
        #expect(run.events.contains(.reopened(attempt: 3)))
        #expect(transport.calls.filter { $0 == "open" }.count == 4)
        #expect(transport.calls.filter { $0 == "close" }.count == 4)
    }

    @Test("No report for the watchdog period: the session is closed and reopened")
    func watchdog() async throws {
        let clock = AutoAdvancingClock()
        let watched = BlueZScannerConfiguration(
            adapter: .index(0), pollInterval: .milliseconds(5),
            watchdog: .seconds(30))
        let transport = FakeHCITransport(
            sessions: [
                [.packet(report1), .idle(.seconds(10)), .idle(.seconds(10)), .idle(.seconds(10))],
                [.packet(report2)],
            ],
            clock: clock)
        let run = await runScanner(watched, transport: transport, clock: clock, stopAfter: 2)
        #expect(run.packets == [report1, report2])
        #expect(run.events.contains(.sessionLost(.watchdogExpired(adapter: "hci0", period: .seconds(30)))))
        #expect(clock.sleeps == [.seconds(1)])
        // The first session disabled scanning before the second opened.
        #expect(transport.commandOpcodes == [0x1001, 0x200B, 0x200C, 0x200C, 0x1001, 0x200B, 0x200C, 0x200C])
    }

    @Test("A slow consumer: packets beyond the bounded buffer are dropped, counted and logged")
    func dropPolicy() async throws {
        let gate = DispatchSemaphore(value: 0)
        let (exhausted, exhaustedContinuation) = AsyncStream<Void>.makeStream()
        let packets = (1...10).map { [0x04, 0x3E, 0x02, 0x02, UInt8($0)] }
        let transport = FakeHCITransport(
            sessions: [[.packet(packets[0]), .wait(gate)] + packets[1...].map { .packet($0) }],
            onExhausted: { exhaustedContinuation.yield() })
        let tight = BlueZScannerConfiguration(
            adapter: .index(0), pollInterval: .milliseconds(5), bufferCapacity: 1,
            maxPacketsPerBatch: 1)
        let run = await runScanner(tight, transport: transport, clock: AutoAdvancingClock(), stopAfter: 2) { batch in
            guard batch == 1 else { return }
            gate.signal() // let the reader go on while we hold batch 1
            for await _ in exhausted { break } // until it has read all ten
        }
        #expect(run.packets == [packets[0], packets[1]]) // the one being delivered + the one buffered
        #expect(run.events.contains(.packetsDropped(total: 1)))
        #expect(run.events.contains(.sessionEnded(adapter: "hci0", received: 10, dropped: 8)))
    }
}
