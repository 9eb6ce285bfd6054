import BeaconCore
import Testing

@testable import BeaconSite

/// Self-calibration as a stage (`SiteCalibrator`), without a hub: what it samples, and what a
/// saved model it takes up keeps of the hand-set values.
@Suite("Self-calibration as a stage: sampling and restoring")
struct SiteCalibratorTests {
    static let gatewayIDs = ["a", "b", "c", "d"]
    static let model = SiteRadioModel(pathLossExponent: 2, tagHeight: 1.2, receiveOffsets: [0, 0, 0, 0])

    static func calibrator(_ settings: SelfCalibration = SelfCalibration()) -> SiteCalibrator {
        let positions: [Vector3?] = [
            Vector3(x: 0, y: 0, z: 3), Vector3(x: 10, y: 0, z: 3), Vector3(x: 0, y: 10, z: 3), Vector3(x: 10, y: 10, z: 3),
        ]
        return SiteCalibrator(
            settings: settings, model: model, gatewayIDs: gatewayIDs,
            fit: SiteModelFit(
                gateways: positions, gatewayIDs: gatewayIDs, settings: settings, exponentCentre: 2, modelSigma: 6,
                beaconPrior: 10, bounds: (-2, -2, 12, 12)))
    }

    @Test("moving beacons are sampled in turn, at most four a cycle, each once per ten cycles among forty; anchors always")
    func sampling() {
        var calibrator = Self.calibrator()
        calibrator.measurements = (0..<4).map { CalibrationWindow.Measurement(gateway: UInt16($0), samples: 2, loss: 60) }
        var sampledBy: [Int: [Int64]] = [:]
        for cycle in Int64(0)..<20 {
            calibrator.startCycle()
            var taken = 0
            for b in 0..<40 where calibrator.samples(beacon: b, of: 40, isAnchor: false, cycle: cycle) {
                sampledBy[b, default: []].append(cycle)
                calibrator.takeFix(height: 1.2, place: nil)
                taken += 1
            }
            #expect(taken == 4, "cycle \(cycle): \(taken)")
            #expect(calibrator.samples(beacon: 7, of: 40, isAnchor: true, cycle: cycle))
        }
        #expect(sampledBy.count == 40)
        #expect(sampledBy.values.allSatisfy { $0.count == 2 && $0[1] - $0[0] == 10 }, "\(sampledBy)")
        // A full quota refuses the next moving beacon, whatever its turn.
        calibrator.startCycle()
        for b in [0, 10, 20, 30] where calibrator.samples(beacon: b, of: 40, isAnchor: false, cycle: 0) {
            calibrator.takeFix(height: 1.2, place: nil)
        }
        #expect(!calibrator.samples(beacon: 0, of: 40, isAnchor: false, cycle: 0))
    }

    @Test(
        "a moving fix is solved within the grid filter's posterior: near its mean when it is narrow, by the readings when it is wide"
    )
    func fixWithinPosterior() throws {
        let calibrator = Self.calibrator()
        var fit = SiteModelFit(
            gateways: [
                Vector3(x: 0, y: 0, z: 3), Vector3(x: 10, y: 0, z: 3), Vector3(x: 0, y: 10, z: 3),
                Vector3(x: 10, y: 10, z: 3),
            ], gatewayIDs: Self.gatewayIDs, settings: calibrator.settings, exponentCentre: 2, modelSigma: 6,
            beaconPrior: 10, bounds: (-2, -2, 12, 12))
        // Exact losses of a tag at (3, 4), at 1.2 m, under the model.
        let truth = (x: 3.0, y: 4.0)
        let measurements = (0..<4).map { g in
            let gateway = fit.gateways[g]!
            return CalibrationWindow.Measurement(
                gateway: UInt16(g), samples: 5, loss: Float(2 * fit.logDistance(gateway, truth, 1.2)))
        }
        func distance(_ p: (x: Double, y: Double)?, _ q: (x: Double, y: Double)) -> Double {
            guard let p else { return .infinity }
            return ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
        }
        let free = fit.locate(measurements[...], model: Self.model, skip: -1, height: 1.2)
        #expect(distance(free, truth) < 0.05, "\(String(describing: free))")
        // A posterior 0.2 m wide at (7, 6) holds the fix there; one 50 m wide leaves it to the readings.
        let narrow = fit.locate(measurements[...], model: Self.model, skip: -1, height: 1.2, around: (7, 6, 0.2))
        #expect(distance(narrow, (7, 6)) < 0.3, "\(String(describing: narrow))")
        let wide = fit.locate(measurements[...], model: Self.model, skip: -1, height: 1.2, around: (7, 6, 50))
        #expect(distance(wide, truth) < 0.1, "\(String(describing: wide))")
        // A place without a spread (a reported position, not a posterior) is no prior.
        let reported = fit.locate(measurements[...], model: Self.model, skip: -1, height: 1.2, around: (7, 6, 0))
        #expect(distance(reported, truth) < 0.05, "\(String(describing: reported))")
    }

    @Test("a saved model of another layout is refused; one of this layout is taken, with the hand-set exponent kept")
    func restoring() {
        var saved = CalibrationStatus(
            model: SiteRadioModel(pathLossExponent: 2.6, tagHeight: 1.0, receiveOffsets: [1, -2, 3, 0]), gateways: Self.gatewayIDs
        )
        var other = saved
        other.gateways = ["a", "b", "c", "x"]
        var calibrator = Self.calibrator(SelfCalibration(fixedExponent: true, fixedOffsets: [1]))
        #expect(calibrator.restore(other, current: Self.model) == nil)
        saved.fits = 3
        let restored = calibrator.restore(saved, current: Self.model)
        #expect(restored?.pathLossExponent == 2, "the exponent set by hand stays")
        #expect(restored?.tagHeight == 1.0)
        #expect(restored?.receiveOffsets == [1, 0, 3, 0], "gateway 1's offset is fixed at 0")
        #expect(calibrator.status.fits == 3 && calibrator.status.model == restored)
    }
}
