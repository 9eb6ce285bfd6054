import BeaconBlueZ
import BeaconCore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Each user-facing error, provoked by injecting the errno (or controller answer) behind the
/// transport, and checked for the advice it gives.
@Suite("BlueZScannerError")
struct BlueZScannerErrorTests {
    let configuration = BlueZScannerConfiguration(adapter: .index(0))

    @Test("Kernel without Bluetooth (EAFNOSUPPORT): says so and points to parse/replay/simulate")
    func kernelWithoutBluetooth() async throws {
        let transport = FakeHCITransport(failures: [.socket: EAFNOSUPPORT])
        let run = await runScanner(configuration, transport: transport, clock: AutoAdvancingClock())
        let error = try #require(run.scannerError)
        #expect(error == .bluetoothUnavailable(HCISystemError(.socket, errno: EAFNOSUPPORT)))
        #expect(!error.isRecoverable)
        for hint in [
            "no Bluetooth support", "Address family not supported", "beacond parse", "beacond replay",
            "beacond simulate",
        ] {
            #expect(error.description.contains(hint), "missing \(hint)")
        }
        #expect(transport.calls == ["open"])
    }

    @Test("No such adapter: lists the adapters present")
    func noSuchAdapter() async throws {
        let present = [
            HCIAdapterInfo(index: 0, address: BluetoothAddress("00:1a:7d:da:71:13"), isUp: true),
            HCIAdapterInfo(index: 1, isUp: false),
        ]
        let transport = FakeHCITransport(adapterLists: [present])
        let run = await runScanner(
            BlueZScannerConfiguration(adapter: .index(4)), transport: transport,
            clock: AutoAdvancingClock())
        let error = try #require(run.scannerError)
        #expect(error == .noSuchAdapter(requested: "hci4", available: present))
        #expect(error.description.contains("No Bluetooth adapter hci4"))
        #expect(error.description.contains("hci0 (00:1a:7d:da:71:13, up), hci1 (down)"))
        #expect(transport.calls == ["open", "close"])
    }

    @Test(
        "No permission (EPERM or EACCES): the exact setcap line, CAP_NET_ADMIN only to bring it up",
        arguments: [EPERM, EACCES])
    func permission(errno: Int32) async throws {
        let transport = FakeHCITransport(failures: [.write: errno])
        let run = await runScanner(configuration, transport: transport, clock: AutoAdvancingClock())
        let error = try #require(run.scannerError)
        #expect(error == .permissionDenied(adapter: "hci0", HCISystemError(.write, errno: errno)))
        #expect(error.description.contains("sudo setcap cap_net_raw+ep $(command -v beacond)"))
        #expect(error.description.contains("CAP_NET_ADMIN is only needed to bring an adapter up"))
        #expect(!error.isRecoverable)
    }

    @Test("Adapter down (ENETDOWN): hciconfig up / btmgmt power on")
    func adapterDown() async throws {
        let transport = FakeHCITransport(failures: [.write: ENETDOWN])
        let run = await runScanner(configuration, transport: transport, clock: AutoAdvancingClock())
        let error = try #require(run.scannerError)
        #expect(error == .adapterDown(adapter: "hci0"))
        #expect(error.description.contains("sudo hciconfig hci0 up"))
        #expect(error.description.contains("btmgmt --index 0 power on"))
    }

    @Test("Adapter busy (EBUSY at bind): what holds it and what to do")
    func busy() async throws {
        let transport = FakeHCITransport(failures: [.bind: EBUSY])
        let run = await runScanner(configuration, transport: transport, clock: AutoAdvancingClock())
        let error = try #require(run.scannerError)
        guard case .adapterBusy(adapter: "hci0", _) = error else {
            Issue.record("expected adapterBusy, got \(error)")
            return
        }
        #expect(error.description.contains("bluetoothd"))
        #expect(error.description.contains("bluetoothctl scan off"))
    }

    @Test("Command Disallowed on legacy with no extended commands available: adapter busy")
    func commandDisallowedLegacyOnly() async throws {
        let controller = FakeHCITransport.Controller(hciVersion: 0x08, statuses: [0x200B: 0x0C])
        let transport = FakeHCITransport(controller: controller)
        let run = await runScanner(configuration, transport: transport, clock: AutoAdvancingClock())
        let error = try #require(run.scannerError)
        #expect(
            error
                == .adapterBusy(
                    adapter: "hci0",
                    detail: "LE Set Scan Parameters (0x200b) answered Command Disallowed (0x0c)"))
        #expect(transport.calls.last == "close")
        #expect(transport.currentFilter == FakeHCITransport.initialFilter)
    }

    @Test("Command Disallowed from both extended and legacy: adapter busy naming both")
    func commandDisallowedBoth() async throws {
        let controller = FakeHCITransport.Controller(
            hciVersion: 0x09, leFeatures: 0x1000,
            statuses: [0x2041: 0x0C, 0x200B: 0x0C])
        let run = await runScanner(
            configuration, transport: FakeHCITransport(controller: controller),
            clock: AutoAdvancingClock())
        let error = try #require(run.scannerError)
        #expect(
            error
                == .adapterBusy(
                    adapter: "hci0",
                    detail: "LE Set Extended Scan Parameters (0x2041) and "
                        + "LE Set Scan Parameters (0x200b) both answered Command Disallowed (0x0c)"))
    }

    @Test(
        "errno mapping",
        arguments: [
            (EAFNOSUPPORT, "bluetoothUnavailable"), (EPERM, "permissionDenied"), (EACCES, "permissionDenied"),
            (ENETDOWN, "adapterDown"), (EBUSY, "adapterBusy"), (ENODEV, "adapterLost"), (EPIPE, "adapterLost"),
            (132, "adapterBlocked"), (EIO, "system"),
        ])
    func mapping(errno: Int32, expected: String) {
        let error = BlueZScannerError(HCISystemError(.read, errno: errno), adapter: "hci0")
        #expect(String(describing: Mirror(reflecting: error).children.first?.label ?? "\(error)") == expected)
    }
}
