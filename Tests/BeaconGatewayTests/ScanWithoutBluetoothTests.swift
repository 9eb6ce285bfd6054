import Foundation
import Testing

/// On a kernel without Bluetooth (like the CI machine), `beacond scan` must fail at once with a
/// message that says so and what to use instead. Skipped where the kernel has Bluetooth.
@Suite("beacond scan without Bluetooth")
struct ScanWithoutBluetoothTests {
    static var kernelLacksBluetooth: Bool {
        let fd = socket(31 /* AF_BLUETOOTH */, Int32(SOCK_RAW.rawValue), 1 /* BTPROTO_HCI */)
        if fd >= 0 { close(fd); return false }
        return errno == EAFNOSUPPORT
    }

    @Test("exits 69 within 2 s, naming the cause and the radio-free commands",
          .enabled(if: kernelLacksBluetooth, "this kernel has Bluetooth"))
    func failsFast() throws {
        let started = ContinuousClock.now
        let run = try CommandRun(TestPaths.beacond, ["scan", "--duration", "10s"])
        let elapsed = ContinuousClock.now - started
        #expect(run.status == 69)
        #expect(elapsed < .seconds(2), "took \(elapsed)")
        #expect(run.standardError.contains("no Bluetooth support"), "\(run.standardError)")
        for alternative in ["beacond parse", "beacond replay", "beacond simulate"] {
            #expect(run.standardError.contains(alternative), "\(run.standardError)")
        }
        #expect(run.standardOutput.isEmpty)
    }
}
