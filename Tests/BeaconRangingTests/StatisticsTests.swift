import Testing

@testable import BeaconRanging

@Suite("Statistics")
struct StatisticsTests {
    @Test("nearest-rank quantiles")
    func quantiles() {
        let values: [Double] = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6]
        #expect(Statistics.quantile(values, 0.5) == 5) // ⌈5⌉ = 5th smallest
        #expect(Statistics.quantile(values, 0.9) == 9) // ⌈9⌉ = 9th smallest
        #expect(Statistics.quantile([], 0.5) == nil)
    }

    @Test("Pearson correlation of exact linear relations is ±1")
    func correlation() throws {
        #expect(abs(try #require(Statistics.correlation([1, 2, 3, 4], [3, 5, 7, 9])) - 1) < 1e-12)
        #expect(abs(try #require(Statistics.correlation([1, 2, 3, 4], [8, 6, 4, 2])) + 1) < 1e-12)
        #expect(Statistics.correlation([1, 1, 1], [1, 2, 3]) == nil)
    }

    @Test("fixed-point formatting")
    func fixed() {
        #expect(Statistics.fixed(2.375, 2) == "2.38") // 2.375 is exact in binary; halves round away from zero
        #expect(Statistics.fixed(-0.5, 1) == "-0.5")
        #expect(Statistics.fixed(3.0, 2) == "3.00")
        #expect(Statistics.fixed(nil, 2) == "–")
    }
}
