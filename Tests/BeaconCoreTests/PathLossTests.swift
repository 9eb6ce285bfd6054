import Foundation
import Testing

@testable import BeaconCore

@Suite("PathLoss")
struct PathLossTests {
    static let cases: [(power: Double, exponent: Double, distance: Double)] = [
        (-59, 2, 1), (-59, 1.5, 4.2), (-70, 3.1, 0.35), (-45, 2.7, 17.9), (-59, 1.5, 0.01),
    ]

    @Test(
        "the formulas are the ones the call sites wrote out: to the bit, the distance within 4 units in the last place",
        arguments: cases.indices)
    func bitIdentical(index: Int) {
        let (p, n, d) = Self.cases[index]
        let rssi = PathLoss.rssi(measuredPower: p, exponent: n, distance: d)
        #expect(rssi.bitPattern == (p - 10 * n * log10(d)).bitPattern)
        #expect(PathLoss.loss(exponent: n, distance: d).bitPattern == (10 * n * log10(d)).bitPattern)
        // `exp(x · ln 10)`, several times cheaper than `pow(10, x)`, and a few ulps from it.
        let reference = pow(10, (p - rssi) / (10 * n))
        #expect(abs(PathLoss.distance(measuredPower: p, exponent: n, rssi: rssi) - reference) <= 4 * reference.ulp)
    }

    @Test("distance inverts rssi", arguments: cases.indices)
    func inverse(index: Int) {
        let (p, n, d) = Self.cases[index]
        let rssi = PathLoss.rssi(measuredPower: p, exponent: n, distance: d)
        #expect(abs(PathLoss.distance(measuredPower: p, exponent: n, rssi: rssi) - d) < 1e-9 * max(d, 1))
        #expect(PathLoss.rssi(measuredPower: p, exponent: n, distance: 1) == p)
    }
}
