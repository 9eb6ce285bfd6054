import Testing

@testable import BeaconRanging

@Suite("LogDistanceModel")
struct LogDistanceModelTests {
    @Test("log-distance: 10^((P − RSSI)/(10n)), per-beacon exponent override")
    func logDistance() {
        let m = LogDistanceModel(exponent: 2)
        #expect(abs(m.distance(rssi: -79, measuredPower: -59) - 10) < 1e-12)
        #expect(abs(m.distance(rssi: -89, measuredPower: -59, pathLossExponent: 3) - 10) < 1e-12)
        #expect(abs(m.distance(rssi: -59, measuredPower: -59) - 1) < 1e-12)
    }
}
