import BeaconBlueZ
import Testing

@Suite("ScanParameters")
struct ScanParametersTests {
    @Test(
        "Times convert to 0.625 ms units",
        arguments: [
            (Duration.microseconds(2_500), UInt16(0x0004)), // spec minimum
            (.milliseconds(10), 0x0010),
            (.milliseconds(100), 0x00A0),
            (.milliseconds(1_000), 0x0640),
            (.milliseconds(10_240), 0x4000), // legacy maximum
        ])
    func units(time: Duration, units: UInt16) throws {
        let scan = try ScanParameters(interval: time, window: time)
        #expect(scan.intervalUnits == units)
        #expect(scan.windowUnits == units)
    }

    @Test(
        "Out-of-range times and a window longer than the interval are refused",
        arguments: [
            (Duration.milliseconds(2), Duration.milliseconds(2)),
            (.milliseconds(10_241), .milliseconds(100)),
            (.milliseconds(50), .milliseconds(100)),
        ])
    func invalid(interval: Duration, window: Duration) {
        #expect {
            try ScanParameters(interval: interval, window: window)
        } throws: { error in
            guard case .invalidScanParameters = error as? BlueZScannerError else { return false }
            return true
        }
    }

    @Test("Defaults: passive, continuous 100 ms, public address")
    func defaults() {
        let scan = ScanParameters.default
        #expect(scan.type == .passive)
        #expect(scan.interval == .milliseconds(100) && scan.window == .milliseconds(100))
        #expect(scan.ownAddressType == .public)
    }
}
