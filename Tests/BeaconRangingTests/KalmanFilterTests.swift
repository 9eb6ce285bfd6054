import BeaconCore
import Testing

@testable import BeaconRanging

@Suite("KalmanFilter")
struct KalmanFilterTests {
    @Test("published defaults: Q 0.008, R 4")
    func defaults() {
        let c = KalmanFilter.Configuration()
        #expect(c.processNoise == 0.008)
        #expect(c.measurementNoise == 4)
    }

    @Test("step response matches hand-computed values")
    func stepResponse() throws {
        // Start at −60 (x = −60, p = 4), then three samples at −70.
        // 1: p⁻ = 4.008, K = 4.008/8.008 = 0.500499500…, x = −60 − 10K = −65.004995…, p = (1−K)·4.008 = 2.001998…
        // 2: p⁻ = 2.009998…, K = 2.009998/6.009998 = 0.334442…, x = −65.004995 − 4.995005·0.334442 = −66.675536…, p = 1.337769…
        // 3: p⁻ = 1.345769…, K = 1.345769/5.345769 = 0.251745…, x = −66.675536 − 3.324464·0.251745 = −67.512453…
        var filter = KalmanFilter()
        filter.add(-60, at: .epoch)
        #expect(filter.estimate == -60)
        #expect(filter.covariance == 4)
        filter.add(-70, at: .epoch)
        #expect(abs(try #require(filter.estimate) - -65.004995) < 1e-5)
        #expect(abs(try #require(filter.covariance) - 2.001998) < 1e-5)
        filter.add(-70, at: .epoch)
        #expect(abs(try #require(filter.estimate) - -66.675536) < 1e-5)
        filter.add(-70, at: .epoch)
        #expect(abs(try #require(filter.estimate) - -67.512453) < 1e-5)
    }
}
