import BeaconCore
import BeaconRanging
import BeaconSiteReport

extension SiteFusion {
    func locate(_ b: Int, cycle: Int64) -> BeaconPosition? {
        positionScratch.removeAll(keepingCapacity: true)
        let positioning = configuration.positioning
        let power = Double(beacons[b].measuredPower ?? -59)
        let modelVariance = positioning.modelSigma * positioning.modelSigma
        let tagHeight = positionHeight(of: b)
        let sampling = samplesFix(b, cycle: cycle)
        if sampling { measurementScratch.removeAll(keepingCapacity: true) }
        for g in 0..<gatewayCount where isOnPositionFloor(gateway: g, beacon: b) {
            // This cycle's sightings only: a record within its grace repeats a stale RSSI.
            let s = (b * gatewayCount + g) * EvidenceSlot.perGateway + Int(cycle & EvidenceSlot.mask)
            let slot = slots[s]
            guard slot.cycle == cycle, slot.samples > 0, !slot.mean.isNaN, let point = layout.gateways[g].position else {
                continue
            }
            if sampling {
                measurementScratch.append(
                    CalibrationWindow.Measurement(
                        gateway: UInt16(g), samples: slot.samples, loss: Float(power) - slot.mean))
            }
            let rssi = Double(slot.mean) + model.receiveOffsets[g]
            let exponent = model.exponent(g)
            let tenN = 10 * exponent
            let loss = power - rssi
            // The gateway's own uncertainty, back in dB: σ = 10·n·log10(1 + accuracy/distance).
            let stated = slot.distance.isNaN ? 0 : Double(slot.distance)
            let innovation = slot.accuracy.isNaN || stated <= 0 ? 0 : tenN * logarithm10(1 + Double(slot.accuracy) / stated)
            positionScratch.append(
                PositionEvidence(
                    x: point.x, y: point.y, z: point.z, loss: loss,
                    weight: 1 / (modelVariance + innovation * innovation / Double(slot.samples)), exponent: exponent,
                    distance: 0, rssi: rssi))
        }
        if sampling { takeFix(b, height: tagHeight) }
        var fix: BeaconPosition?
        if !positionScratch.isEmpty {
            // Strongest first (insertion sort: a handful of entries).
            for i in 1..<positionScratch.count {
                var j = i
                while j > 0 && positionScratch[j].rssi > positionScratch[j - 1].rssi {
                    positionScratch.swapAt(j, j - 1)
                    j -= 1
                }
            }
            // The distances, for the centroid of the strongest four only (its one reader).
            for i in 0..<min(4, positionScratch.count) {
                // From this cycle's mean, as the fit uses: the filtered distance lags a walking tag.
                let e = positionScratch[i]
                positionScratch[i].distance = max(
                    0.1, PathLoss.distance(measuredPower: power, exponent: e.exponent, rssi: e.rssi))
            }
            fix = positionScratch.withUnsafeBufferPointer { evidence in
                if evidence.count >= positioning.minimumGateways,
                    let solved = Multilateration.solve(
                        evidence, height: tagHeight, offsetPrior: positioning.offsetPrior, bounds: bounds,
                        start: beacons[b].tracker.predicted(dt: cycleSeconds))
                {
                    statistics.multilaterations += 1
                    return solved
                }
                statistics.centroids += 1
                return Multilateration.centroid(evidence, height: tagHeight, strongest: 4)
            }
        }
        guard let q = positioning.tracking else { return fix }
        return beacons[b].tracker.step(fix: fix, dt: cycleSeconds, processNoise: q, height: tagHeight)
    }
}
