import BeaconCore

/// How a fit is judged: its misfit on the held-back fixes, and whether it is degenerate.
extension SiteModelFit {
    // MARK: The test

    /// The robust misfit (dB, as an RMS) of predicting each held-back measurement from the rest
    /// of its fix; `nil` when none could be predicted.
    mutating func heldOutMisfit(_ items: [Item], model: SiteRadioModel) -> Double? {
        var total = 0.0
        var count = 0
        for item in items.prefix(300) {
            let (header, measurements) = item.ring.fix(item.index)
            for j in measurements.indices.map({ $0 - measurements.startIndex }) {
                let position: (x: Double, y: Double)?
                if let known = header.known {
                    position = (known.x, known.y)
                } else {
                    guard measurements.count >= 4 else { break }
                    position = locate(measurements, model: model, skip: j, height: header.height)
                }
                guard let position else { continue }
                let height = header.height
                // b from the others; the left-out one predicted.
                var others = 0.0
                var n = 0.0
                var target = 0.0
                var targetFound = false
                for (k, m) in measurements.enumerated() {
                    guard let g = gatewayPosition(m.gateway) else { continue }
                    let predicted =
                        model.exponent(Int(m.gateway)) * logDistance(g, position, height) + model.receiveOffsets[Int(m.gateway)]
                    if k == j {
                        target = Double(m.loss) - predicted
                        targetFound = true
                    } else {
                        others += Double(m.loss) - predicted
                        n += 1
                    }
                }
                guard targetFound, n > 0 else { continue }
                let w = 1 / (modelSigma * modelSigma)
                let b = others * w / (n * w + 1 / (beaconPrior * beaconPrior))
                total += CalibrationMath.huberLoss(target - b, modelSigma)
                count += 1
            }
        }
        return count > 0 ? (2 * total / Double(count)).squareRoot() : nil
    }

    // MARK: Degenerate fits

    func degeneracy(_ model: SiteRadioModel) -> String? {
        if !settings.fixedExponent {
            let n = model.pathLossExponent
            if n <= settings.exponentBounds.lowerBound + 0.01 || n >= settings.exponentBounds.upperBound - 0.01 {
                return "the exponent ran to its bound (\(rounded(n)))"
            }
        }
        let departures = (0..<gateways.count).filter { model.exponentOffsets[$0] != 0 }
        let departed = departures.filter { abs(model.exponentOffsets[$0]) >= settings.gatewayExponentBound - 0.01 }
        if !departed.isEmpty {
            return "gateway exponents ran to n ± \(rounded(settings.gatewayExponentBound)): "
                + departed.map { gatewayIDs[$0] }.joined(separator: ", ")
        }
        if departures.count >= 3 {
            let values = departures.map { model.exponentOffsets[$0] }
            let mean = values.reduce(0, +) / Double(values.count)
            if (values.max() ?? 0) - (values.min() ?? 0) < 0.01, abs(mean) > 0.2 {
                return "every gateway's exponent converged to one value (n \(mean >= 0 ? "+" : "−") \(rounded(abs(mean))))"
            }
        }
        let free = (0..<gateways.count).filter { !settings.fixedOffsets.contains($0) && gateways[$0] != nil }
        let atBound = free.filter { abs(model.receiveOffsets[$0]) >= settings.offsetBound - 0.05 }
        if !atBound.isEmpty {
            return "receive offsets ran to ±\(rounded(settings.offsetBound)) dB: "
                + atBound.map { gatewayIDs[$0] }.joined(separator: ", ")
        }
        if free.count >= 3 {
            let values = free.map { model.receiveOffsets[$0] }
            let spread = (values.max() ?? 0) - (values.min() ?? 0)
            let mean = values.reduce(0, +) / Double(values.count)
            if spread < 0.05, abs(mean) > 1 {
                return "every receive offset converged to one value (\(rounded(mean)) dB)"
            }
        }
        return nil
    }
}
