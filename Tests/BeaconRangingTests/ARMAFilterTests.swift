import BeaconCore
import Testing

@testable import BeaconRanging

@Suite("ARMAFilter")
struct ARMAFilterTests {
    @Test("published default: speed 0.1 (AltBeacon DEFAULT_ARMA_SPEED)")
    func defaults() { #expect(ARMAFilter.Configuration().speed == 0.1) }

    @Test("step response in floating point: x ← x − 0.1·(x − z)")
    func stepResponse() throws {
        // −60 then −70 repeatedly: −61, −61.9, −62.71, −63.439 (AltBeacon's int cast would give −61, −61, …).
        var filter = ARMAFilter()
        filter.add(-60, at: .epoch)
        #expect(filter.estimate == -60)
        for expected in [-61.0, -61.9, -62.71, -63.439] {
            filter.add(-70, at: .epoch)
            #expect(abs(try #require(filter.estimate) - expected) < 1e-9)
        }
    }
}
