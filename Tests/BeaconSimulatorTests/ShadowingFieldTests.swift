import BeaconConfiguration
import BeaconCore
import BeaconSimulator
import Testing

/// Shadowing that belongs to a place (`radio.place_shadowing`): its spread, its correlation over
/// distance, its determinism, and how a scenario file asks for it.
@Suite("Place shadowing: a smooth random field per gateway")
struct ShadowingFieldTests {
    @Test("values spread by σ about 0 over a floor much wider than the correlation length")
    func spread() {
        let field = ShadowingField(sigma: 4, correlationLength: 3, seed: 7, stream: 1, components: 24)
        var values: [Double] = []
        for i in 0..<60 {
            for j in 0..<60 { values.append(field.value(x: Double(i) * 7, y: Double(j) * 7)) }
        }
        let mean = values.reduce(0, +) / Double(values.count)
        let deviation = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
        #expect(abs(mean) < 0.6, "mean \(mean)")
        #expect(abs(deviation - 4) < 0.8, "σ \(deviation)")
    }

    @Test("two spots half a correlation length apart are alike, three lengths apart they are not")
    func correlation() {
        func correlation(at distance: Double) -> Double {
            var product = 0.0
            var square = 0.0
            for stream in 0..<200 {
                let field = ShadowingField(sigma: 1, correlationLength: 3, seed: 11, stream: UInt64(stream))
                for k in 0..<20 {
                    let x = Double(k) * 13.7
                    let a = field.value(x: x, y: 5)
                    let b = field.value(x: x + distance, y: 5)
                    product += a * b
                    square += a * a
                }
            }
            return product / square
        }
        // Gaussian covariance exp(−r²/2ℓ²): 0.88 at ℓ/2, 0.011 at 3ℓ.
        let near = correlation(at: 1.5)
        let far = correlation(at: 9)
        #expect(near > 0.75, "at 1.5 m: \(near)")
        #expect(abs(far) < 0.2, "at 9 m: \(far)")
    }

    @Test("the same seed and stream give the same field; another stream another")
    func deterministic() {
        let a = ShadowingField(sigma: 4, correlationLength: 3, seed: 40, stream: 3)
        let b = ShadowingField(sigma: 4, correlationLength: 3, seed: 40, stream: 3)
        let c = ShadowingField(sigma: 4, correlationLength: 3, seed: 40, stream: 4)
        #expect(a == b && a.value(x: 2.5, y: 7) == b.value(x: 2.5, y: 7))
        #expect(a.value(x: 2.5, y: 7) != c.value(x: 2.5, y: 7))
    }

    @Test("radio.place_shadowing is read with its defaults, and a bad value is refused at its line")
    func scenarioKeys() throws {
        func radio(_ line: String) throws -> RadioModel {
            try Scenario.parse(
                yaml: """
                    duration: 90s
                    radio:
                      \(line)
                    gateways:
                      - {name: gw, position: [0, 0, 1]}
                    beacons:
                      - {name: b, ibeacon: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 2}, position: [1, 0, 1]}
                    """, file: "s.yaml"
            ).radio
        }
        let given = try radio("place_shadowing: {sigma: 5, length: 2}")
        #expect(given.placeShadowingSigma == 5 && given.placeShadowingLength == 2)
        let defaults = try radio("place_shadowing: {}")
        #expect(defaults.placeShadowingSigma == 4 && defaults.placeShadowingLength == 3)
        #expect(try radio("shadowing_sigma: 2").placeShadowingSigma == 0)
        do {
            _ = try radio("place_shadowing: {sigma: 50}")
            Issue.record("a σ of 50 dB was taken")
        } catch {
            let message = "\(error)"
            #expect(message.contains("s.yaml:3"), "\(message)")
            #expect(message.contains("from 0 to 20 dB"), "\(message)")
        }
    }

    @Test("the bundled hall session loads: 12 receivers, place shadowing, a parked tag")
    func hallSession() throws {
        let scenario = try Scenario.load(path: TestSupport.scenarioPath("hall-session.yaml"))
        #expect(scenario.gateways.count == 12 && scenario.rooms.count == 4)
        #expect(scenario.radio.placeShadowingSigma == 4)
        #expect(scenario.walkers[0].waypoints[0].dwell == .seconds(1800))
    }
}
