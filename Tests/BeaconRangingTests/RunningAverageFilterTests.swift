import BeaconCore
import Testing

@testable import BeaconRanging

@Suite("RunningAverageFilter")
struct RunningAverageFilterTests {
    @Test("published defaults: 20 s window (AltBeacon DEFAULT_SAMPLE_EXPIRATION_MILLISECONDS)")
    func defaults() { #expect(RunningAverageFilter.Configuration().window == .seconds(20)) }

    @Test("AltBeacon trimming: n = 10 averages sorted indices 2…7")
    func trimmedMean() throws {
        var filter = RunningAverageFilter()
        for (i, v) in [-50.0, -90, -61, -62, -63, -64, -65, -66, -99, -40].enumerated() {
            filter.add(v, at: Fixture.time(Double(i) * 0.1))
        }
        // Sorted: −99 −90 | −66 −65 −64 −63 −62 −61 | −50 −40 → mean of the middle six = −63.5.
        #expect(try #require(filter.estimate) == -63.5)
    }

    @Test("three samples give the median; samples older than 20 s are dropped")
    func expiry() throws {
        var filter = RunningAverageFilter()
        filter.add(-80, at: Fixture.time(0))
        filter.add(-60, at: Fixture.time(1))
        filter.add(-70, at: Fixture.time(2))
        #expect(filter.estimate == -70)
        filter.add(-50, at: Fixture.time(20.5)) // −80 (age 20.5 s) is dropped; −60 −70 −50 remain
        #expect(filter.estimate == -60)
    }
}
