import BeaconCore
import Testing

@testable import BeaconRanging

@Suite("RSSIFilterKind")
struct RSSIFilterKindTests {
    @Test("filters by name", arguments: ["running-average", "arma", "kalman", "one-euro", "percentile"])
    func names(name: String) {
        #expect(RSSIFilterKind(name: name)?.name == name)
    }

    @Test("an unknown name is nil")
    func unknown() { #expect(RSSIFilterKind(name: "median") == nil) }

    @Test("every kind's filter starts empty and follows a constant input exactly", arguments: RSSIFilterKind.allDefaults)
    func constantInput(kind: RSSIFilterKind) throws {
        var filter = kind.makeFilter()
        #expect(filter.estimate == nil)
        for i in 0..<30 { filter.add(-70, at: Fixture.time(Double(i) * 0.5)) }
        #expect(try #require(filter.estimate) == -70)
        filter.reset()
        #expect(filter.estimate == nil)
    }

    @Test("a copied boxed filter does not share state with the original")
    func valueSemantics() {
        var a = RSSIFilterKind.runningAverage(.init()).makeFilter()
        a.add(-60, at: Fixture.time(0))
        var b = a
        b.add(-80, at: Fixture.time(1))
        #expect(a.estimate == -60)
        #expect(b.estimate == -70)
    }
}
