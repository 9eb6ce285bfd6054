import Testing

@testable import BeaconRanging

@Suite("CurveFittedModel")
struct CurveFittedModelTests {
    @Test("AltBeacon Nexus 5 coefficients are the defaults")
    func defaults() {
        let m = CurveFittedModel()
        #expect(m.coefficientA == 0.42093 && m.coefficientB == 6.9476 && m.coefficientC == 0.54992)
    }

    @Test("curve-fitted: ratio ≥ 1 uses A·r^B + C, ratio < 1 uses r^10")
    func curve() {
        let m = CurveFittedModel()
        // rssi = power: r = 1 → 0.42093 + 0.54992 = 0.97085.
        #expect(abs(m.distance(rssi: -59, measuredPower: -59) - 0.97085) < 1e-12)
        // r = −29.5/−59 = 0.5 → 0.5^10 = 0.0009765625.
        #expect(abs(m.distance(rssi: -29.5, measuredPower: -59) - 0.0009765625) < 1e-12)
        // r = 2 → 0.42093·2^6.9476 + 0.54992 = 0.42093·123.4342… + 0.54992 = 52.50714…
        #expect(abs(m.distance(rssi: -118, measuredPower: -59) - 52.50714) < 1e-3)
    }
}
