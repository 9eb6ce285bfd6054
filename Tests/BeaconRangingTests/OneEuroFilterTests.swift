import BeaconCore
import Testing

@testable import BeaconRanging

@Suite("OneEuroFilter")
struct OneEuroFilterTests {
    @Test("published defaults (Casiez et al. reference code): min cutoff 1, beta 0, d-cutoff 1")
    func defaults() {
        let c = OneEuroFilter.Configuration()
        #expect(c.minCutoff == 1.0 && c.beta == 0.0 && c.derivativeCutoff == 1.0)
    }

    @Test("with beta 0 it is a low-pass with alpha = 1/(1 + 1/(2π·fc·Δt))")
    func lowPassStep() throws {
        // Δt = 1 s, fc = 1 Hz: α = 1/(1 + 1/(2π)) = 0.862697…; −60 then −70 → −60 − 10α = −68.62697…
        var filter = OneEuroFilter()
        filter.add(-60, at: Fixture.time(0))
        filter.add(-70, at: Fixture.time(1))
        #expect(abs(try #require(filter.estimate) - -68.626972) < 1e-5)
    }
}
