import BeaconCore
import Testing

@testable import BeaconRanging

@Suite("PercentileFilter")
struct PercentileFilterTests {
    @Test("defaults: p75 over 10 s, window of 10 to 200 samples")
    func defaults() {
        let c = PercentileFilter.Configuration()
        #expect(c.percentile == 0.75 && c.window == .seconds(10) && c.minSamples == 10 && c.maxSamples == 200)
    }

    @Test("nearest-rank p75 of 8 samples is the 6th smallest")
    func percentile() throws {
        var filter = PercentileFilter()
        for (i, v) in [-70.0, -61, -75, -66, -80, -62, -68, -72].enumerated() { filter.add(v, at: Fixture.time(Double(i))) }
        // Sorted: −80 −75 −72 −70 −68 −66 −62 −61; ⌈0.75·8⌉ = 6 → −66.
        #expect(filter.estimate == -66)
    }

    @Test("old samples are kept while fewer than 10 remain")
    func minimumWindow() throws {
        var filter = PercentileFilter()
        for i in 0..<10 { filter.add(-90 + Double(i), at: Fixture.time(Double(i) * 5)) } // spans 45 s
        // Ten samples −90…−81 all kept (the minimum); ⌈7.5⌉ = 8th smallest = −83.
        #expect(filter.estimate == -83)
    }
}
