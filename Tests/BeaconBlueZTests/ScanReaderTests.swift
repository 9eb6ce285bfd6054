import BeaconCore
import Testing

@testable import BeaconBlueZ

@Suite("ScanReader")
struct ScanReaderTests {
    @Test(
        "Drops are logged when the running total passes 1, 10, 100, … (not for every drop)",
        arguments: [
            (1, 1, true), // 0 → 1
            (5, 1, false), // 4 → 5
            (10, 1, true), // 9 → 10
            (12, 5, true), // 7 → 12 passes 10
            (99, 50, false), // 49 → 99 passes nothing
            (100, 1, true), // 99 → 100
            (1_500, 600, true), // 900 → 1500 passes 1000
        ])
    func dropLogThresholds(total: Int, added: Int, logged: Bool) {
        #expect(ScanReader<ManualClock>.crossesPowerOfTen(total: total, added: added) == logged)
    }
}
