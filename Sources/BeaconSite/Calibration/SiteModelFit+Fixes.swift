import BeaconCore

/// A fix under a model: its position, its misfits, and what it says about a gateway's exponent.
extension SiteModelFit {
    func gatewayPosition(_ g: UInt16) -> Vector3? { Int(g) < gateways.count ? gateways[Int(g)] : nil }

    /// 10·log10 of the distance from gateway `g` to (x, y, height), at least 0.5 m.
    func logDistance(_ g: Vector3, _ p: (x: Double, y: Double), _ height: Double) -> Double {
        let dx = p.x - g.x
        let dy = p.y - g.y
        let dz = height - g.z
        return 5 * logarithm10(max(0.25, dx * dx + dy * dy + dz * dz))
    }

    /// Each measurement's misfit at a position, the fix's own offset *b* fitted (with its prior).
    func fixResiduals(
        _ measurements: ArraySlice<CalibrationWindow.Measurement>, at p: (x: Double, y: Double), height: Double,
        model: SiteRadioModel
    ) -> [Double] {
        var raw: [Double] = []
        for m in measurements {
            guard let g = gatewayPosition(m.gateway) else { continue }
            let predicted = model.exponent(Int(m.gateway)) * logDistance(g, p, height) + model.receiveOffsets[Int(m.gateway)]
            raw.append(Double(m.loss) - predicted)
        }
        let w = 1 / (modelSigma * modelSigma)
        let b = raw.reduce(0, +) * w / (Double(raw.count) * w + 1 / (beaconPrior * beaconPrior))
        return raw.map { $0 - b }
    }

    /// A moving beacon's position from a fix under `model`, leaving out measurement `skip`;
    /// `around`: within the grid filter's posterior (its mean and σ per axis) as a prior.
    mutating func locate(
        _ measurements: ArraySlice<CalibrationWindow.Measurement>, model: SiteRadioModel, skip: Int, height: Double,
        around: CalibrationWindow.Place? = nil
    ) -> (x: Double, y: Double)? {
        evidence.removeAll(keepingCapacity: true)
        for (j, m) in measurements.enumerated() where j != skip {
            guard let g = gatewayPosition(m.gateway) else { continue }
            let loss = Double(m.loss) - model.receiveOffsets[Int(m.gateway)]
            let n = model.exponent(Int(m.gateway))
            evidence.append(
                PositionEvidence(
                    x: g.x, y: g.y, z: g.z, loss: loss, weight: 1 / (modelSigma * modelSigma), exponent: n,
                    distance: max(0.1, power(10, loss / (10 * n))), rssi: -loss))
        }
        guard evidence.count >= 3 else { return nil }
        evidence.sort { $0.rssi > $1.rssi }
        return evidence.withUnsafeBufferPointer { buffer in
            let prior = around.flatMap { $0.spread > 0 ? (x: Double($0.x), y: Double($0.y), sigma: Double($0.spread)) : nil }
            let fix =
                Multilateration.solve(
                    buffer, height: height, offsetPrior: beaconPrior, bounds: bounds, around: prior)
                ?? Multilateration.centroid(buffer, height: height, strongest: 4)
            return (fix.x, fix.y)
        }
    }

    /// Whether each gateway's own exponent can be fitted: it has heard anchors (known distances)
    /// at least ``SelfCalibration/gatewayExponentMeasurements`` times, over distances at least
    /// four to one apart (over a narrower span an exponent and a receive offset are one and the
    /// same: in the simulated shop, whose entrance hears the others at 8 to 22 m, the entrance's
    /// exponent took 4 of its 6 dB offset). Moving beacons' positions are themselves solved with
    /// the exponent, so they never count.
    func exponentSupport(_ items: [Item]) -> [Bool] {
        var counts = [Int](repeating: 0, count: gateways.count)
        var lowest = [Double](repeating: .infinity, count: gateways.count)
        var highest = [Double](repeating: -.infinity, count: gateways.count)
        for item in items {
            let (header, measurements) = item.ring.fix(item.index)
            guard let known = header.known else { continue }
            for m in measurements {
                guard let g = gatewayPosition(m.gateway) else { continue }
                let l = logDistance(g, (known.x, known.y), known.z)
                let i = Int(m.gateway)
                counts[i] += 1
                lowest[i] = min(lowest[i], l)
                highest[i] = max(highest[i], l)
            }
        }
        return (0..<gateways.count).map { g in
            counts[g] >= settings.gatewayExponentMeasurements && highest[g] - lowest[g] >= 6
        }
    }
}
