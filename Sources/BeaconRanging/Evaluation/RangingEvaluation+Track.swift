import BeaconCore

extension RangingEvaluation {
    static let trackFile = "philotuxo_track_straight_04.csv"
    static let sensorsFile = "philotuxo_sensors.csv"

    /// The walking track: one series per sensor, with the true beacon–sensor distance per sample.
    func loadTrack() throws(RangingEvaluationError) -> [RSSISeries] {
        let sensors = try table(Self.sensorsFile)
        let mac = try sensors.column("sensor_mac", in: Self.sensorsFile)
        let sx = try sensors.column("x_m", in: Self.sensorsFile), sy = try sensors.column("y_m", in: Self.sensorsFile)
        let sz = try sensors.column("z_m", in: Self.sensorsFile)
        var position: [Substring: (Double, Double, Double)] = [:]
        for (i, f) in sensors.rows.enumerated() {
            position[f[mac]] = (
                try Self.number(f[sx], Self.sensorsFile, i + 2, "x_m"),
                try Self.number(f[sy], Self.sensorsFile, i + 2, "y_m"),
                try Self.number(f[sz], Self.sensorsFile, i + 2, "z_m")
            )
        }
        let file = Self.trackFile
        let data = try table(file)
        let t = try data.column("timestamp", in: file), sensor = try data.column("sensor_mac", in: file)
        let r = try data.column("rssi", in: file)
        let bx = try data.column("beacon_x_m", in: file), by = try data.column("beacon_y_m", in: file)
        let bz = try data.column("beacon_z_m", in: file)
        var series: [Substring: RSSISeries] = [:]
        for (i, f) in data.rows.enumerated() {
            guard let p = position[f[sensor]] else {
                throw .badValue(file: file, row: i + 2, column: "sensor_mac", text: String(f[sensor]))
            }
            let dx = try Self.number(f[bx], file, i + 2, "beacon_x_m") - p.0
            let dy = try Self.number(f[by], file, i + 2, "beacon_y_m") - p.1
            let dz = try Self.number(f[bz], file, i + 2, "beacon_z_m") - p.2
            series[f[sensor], default: RSSISeries(name: "track \(f[sensor])", times: [], rssi: [], truth: [])].append(
                time: Timestamp(secondsSinceEpoch: try Self.number(f[t], file, i + 2, "timestamp")),
                rssi: try Self.number(f[r], file, i + 2, "rssi"),
                truth: (dx * dx + dy * dy + dz * dz).squareRoot())
        }
        return series.keys.sorted().map { series[$0]! }
    }

    /// Lag on the walking track by cross-correlation: for shifts τ from 0 to 8 s in 0.1 s steps,
    /// the Pearson correlation between the filtered RSSI at each sample time t and the RSSI the
    /// true distance predicts at t − τ (`−10·n·log10 d`, linearly interpolated between that
    /// sensor's samples), averaged over the sensors; the lag is the τ of the highest mean
    /// correlation. Returns (lag s, correlation at that lag).
    func crossCorrelationLag(_ track: [RSSISeries], _ kind: RSSIFilterKind) -> (Double?, Double?) {
        var best: (Double, Double)?
        for step in 0...80 {
            let tau = Duration.milliseconds(step * 100)
            var sum = 0.0, count = 0
            for series in track {
                let filtered = series.filtered(with: kind)
                var xs: [Double] = [], ys: [Double] = []
                for i in series.times.indices {
                    guard let predicted = predictedRSSI(series, at: series.times[i] - tau) else { continue }
                    xs.append(filtered[i])
                    ys.append(predicted)
                }
                if let c = Statistics.correlation(xs, ys) {
                    sum += c
                    count += 1
                }
            }
            guard count > 0 else { continue }
            let mean = sum / Double(count)
            if mean > best?.1 ?? -.infinity { best = (tau.secondsValue, mean) }
        }
        return (best?.0, best?.1)
    }

    /// `−10·n·log10 d` of the true distance at `time`, interpolated; `nil` outside the series.
    private func predictedRSSI(_ series: RSSISeries, at time: Timestamp) -> Double? {
        guard let first = series.times.first, let last = series.times.last, time >= first, time <= last else { return nil }
        var i = 1
        while i < series.times.count - 1, series.times[i] < time { i += 1 }
        let t0 = series.times[max(0, i - 1)], t1 = series.times[i]
        let span = (t1 - t0).secondsValue
        let w = span > 0 ? (time - t0).secondsValue / span : 0
        let d = series.truth[max(0, i - 1)] * (1 - w) + series.truth[i] * w
        return -PathLoss.loss(exponent: exponent, distance: max(d, 0.01))
    }
}

extension RSSISeries {
    mutating func append(time: Timestamp, rssi: Double, truth: Double) {
        times.append(time)
        self.rssi.append(rssi)
        self.truth.append(truth)
    }
}
