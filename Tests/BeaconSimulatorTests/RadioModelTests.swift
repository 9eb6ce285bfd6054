import BeaconCore
import BeaconSimulator
import BeaconWire
import Testing

@Suite("Radio model")
struct RadioModelTests {
    @Test(
        "mean RSSI is the log-distance formula",
        arguments: [
            // measured power, exponent, distance, hand-computed −10·n·log10(d) + P
            (-59, 2.0, 1.0, -59.0), (-59, 2.0, 10.0, -79.0), (-59, 2.5, 4.0, -74.0515), (-65, 3.0, 100.0, -125.0),
        ])
    func meanRSSI(power: Int, exponent: Double, distance: Double, expected: Double) {
        let radio = RadioModel(pathLossExponent: exponent, shadowingSigma: 0)
        #expect(abs(radio.meanRSSI(measuredPower: power, distance: distance) - expected) < 1e-3)
    }

    @Test("with σ = 0 every report carries the path-loss RSSI")
    func noShadowing() throws {
        // -59 − 25·log10(4) = −74.05 → −74.
        let radio = RadioModel(pathLossExponent: 2.5, shadowingSigma: 0, collisions: false)
        let run = TestSupport.runAll(TestSupport.fixedScenario(distance: 4, duration: .seconds(10), radio: radio))
        #expect(run.packets.count > 80)
        for (_, bytes) in run.packets { #expect(Int8(bitPattern: bytes.last!) == -74) }
    }

    @Test("with shadowing the mean RSSI stays at the formula")
    func shadowingMean() {
        let radio = RadioModel(pathLossExponent: 2.5, shadowingSigma: 3, collisions: false)
        let run = TestSupport.runAll(TestSupport.fixedScenario(distance: 4, duration: .seconds(200), radio: radio))
        let rssis = run.packets.map { Double(Int8(bitPattern: $0.1.last!)) }
        let mean = rssis.reduce(0, +) / Double(rssis.count)
        // ~1900 draws: standard error 3/√1900 ≈ 0.07 dB.
        #expect(rssis.count > 1500)
        #expect(abs(mean - -74.05) < 0.3)
        #expect(Set(rssis).count > 5)
    }

    @Test("packet loss is honoured within statistical bounds")
    func packetLoss() {
        let radio = RadioModel(shadowingSigma: 0, packetLoss: 0.3, collisions: false)
        let run = TestSupport.runAll(TestSupport.fixedScenario(count: 10, distance: 2, duration: .seconds(100), radio: radio))
        let heard = run.statistics.advertisements - run.statistics.missedByScanner
        let kept = Double(run.packets.count) / Double(heard)
        // n ≈ 9500: standard error √(0.21/9500) ≈ 0.005; allow 3σ.
        #expect(heard > 9000)
        #expect(abs(kept - 0.7) < 0.015)
        #expect(run.statistics.lostToPacketLoss + run.packets.count >= heard)
    }

    @Test("reports below the sensitivity are dropped")
    func sensitivity() {
        // −59 − 20·log10(200) = −105 dBm < −100.
        let radio = RadioModel(shadowingSigma: 0, collisions: false, sensitivity: -100)
        let run = TestSupport.runAll(TestSupport.fixedScenario(distance: 200, duration: .seconds(10), radio: radio))
        #expect(run.packets.isEmpty)
        #expect(run.statistics.advertisements > 80)
    }

    @Test("overlapping advertisements collide and are both lost")
    func collisions() {
        // Airtime longer than the interval: every event overlaps a neighbour.
        let colliding = RadioModel(shadowingSigma: 0, collisions: true, airtime: .milliseconds(200))
        let run = TestSupport.runAll(TestSupport.fixedScenario(count: 5, duration: .seconds(10), radio: colliding))
        #expect(run.packets.isEmpty)
        #expect(run.statistics.lostToCollisions > 0)
        let clear = RadioModel(shadowingSigma: 0, collisions: false)
        #expect(!TestSupport.runAll(TestSupport.fixedScenario(count: 5, duration: .seconds(10), radio: clear)).packets.isEmpty)
    }
}
