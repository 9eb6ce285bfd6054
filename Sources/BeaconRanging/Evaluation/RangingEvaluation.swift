import BeaconCore

/// Scores every RSSI filter (and the path-loss exponent) on the real RSSI recordings in
/// `Data/rssi` (see its PROVENANCE.md).
///
/// - **Distance error**: each series is filtered sample by sample; after a 10 s warm-up, every
///   estimate is turned into a distance with the log-distance model and compared with the true
///   distance: median and 90th percentile of `|d̂ − d|` (m). Measured power is calibrated once per
///   data set, as an installer would: Herald from the median RSSI of its 1 m step (the
///   definition of measured power); philotuxo, which has no 1 m recording, from the median RSSI
///   of its nearest (0.47 m) series moved to 1 m with the exponent under test
///   (`P = median + 10·n·log10(0.469)`), so its 4.52 m and 17.13 m series are held out.
/// - **Lag** (settle time): on Herald, for every distance step whose median RSSI differs from the
///   previous step's by at least 4 dB, the time from the step's first sample until the filtered
///   RSSI first comes within 2 dB of the new step's median (the step's length if it never does);
///   the median over those steps, in seconds and in samples.
/// - **Room switches** (starksm64): one ``RangingLoop`` per scanner with that filter; every 1 s
///   cycle the room is the scanner with the highest filtered RSSI among those listing the
///   beacon; the number of room changes over the 265 s walk. The true walk visits four rooms,
///   so a handful of switches is right and more is flapping.
/// - **Lag (cross-correlation)** on the philotuxo walking track (12 sensors, 24 s): the shift
///   that best aligns the filtered RSSI with the RSSI the true distance predicts (see
///   `crossCorrelationLag(_:_:)`), and the mean correlation there.
/// - The raw series (no filter: ARMA with speed 1) is the baseline.
public struct RangingEvaluation: Sendable {
    /// The directory holding the CSV files.
    public let dataDirectory: String
    /// Samples in the first `warmUp` of each series are not scored.
    public let warmUp: Duration = .seconds(10)
    /// Exponent of the filter comparison; the exponent table varies it.
    public let exponent: Double
    /// Exponents compared in the exponent table.
    public let exponents: [Double] = [1.5, 1.75, 2.0, 2.5, 3.0]

    /// An evaluation of the files in `dataDirectory`, comparing filters at `exponent`.
    public init(dataDirectory: String, exponent: Double = LogDistanceModel.defaultExponent) {
        self.dataDirectory = dataDirectory
        self.exponent = exponent
    }

    /// The filters compared: a raw baseline, then every filter with its published defaults.
    public static let candidates: [(name: String, kind: RSSIFilterKind)] =
        [("raw (none)", .arma(.init(speed: 1)))] + RSSIFilterKind.allDefaults.map { ($0.name, $0) }

    /// Runs everything and returns the scores.
    public func run() throws(RangingEvaluationError) -> RangingEvaluationReport {
        let philotuxo = try loadPhilotuxo()
        let herald = try loadHerald()
        let scanners = try loadStarksm()
        let track = try loadTrack()
        var report = RangingEvaluationReport(exponent: exponent, series: philotuxo.map(\.name) + [herald.name])
        for candidate in Self.candidates {
            var score = RangingEvaluationReport.FilterScore(name: candidate.name)
            for series in philotuxo + [herald] {
                let power = calibratedPower(series: series, philotuxo: philotuxo, exponent: exponent)
                score.errors.append(distanceErrors(series, candidate.kind, power: power, exponent: exponent))
            }
            (score.settleSeconds, score.settleSamples) = settle(herald, candidate.kind)
            score.roomSwitches = roomSwitches(scanners, candidate.kind)
            (score.trackLagSeconds, score.trackCorrelation) = crossCorrelationLag(track, candidate.kind)
            report.filters.append(score)
        }
        let reference = RSSIFilterKind.arma(.init())
        for n in exponents {
            let errors = (philotuxo + [herald]).map { series in
                distanceErrors(
                    series, reference, power: calibratedPower(series: series, philotuxo: philotuxo, exponent: n), exponent: n)
            }
            report.exponents.append((n, errors))
        }
        return report
    }

    /// The data set's calibrated measured power for exponent `n` (see the type's documentation).
    func calibratedPower(series: RSSISeries, philotuxo: [RSSISeries], exponent n: Double) -> Double {
        if series.name.hasPrefix("herald") { return series.medianRSSI(atDistance: 1.0) ?? -59 }
        let nearest = philotuxo[0]
        return (nearest.medianRSSI() ?? -59) + PathLoss.loss(exponent: n, distance: nearest.truth[0])
    }

    /// Median and p90 absolute distance error (m) after the warm-up.
    func distanceErrors(
        _ series: RSSISeries, _ kind: RSSIFilterKind, power: Double,
        exponent: Double
    ) -> RangingEvaluationReport.ErrorSummary {
        let estimates = series.filtered(with: kind)
        let model = LogDistanceModel(exponent: exponent)
        guard let start = series.times.first else { return .init(median: nil, p90: nil) }
        let scored = start + warmUp
        var errors: [Double] = []
        for i in estimates.indices where series.times[i] >= scored {
            errors.append(abs(model.distance(rssi: estimates[i], measuredPower: power) - series.truth[i]))
        }
        return .init(median: Statistics.quantile(errors, 0.5), p90: Statistics.quantile(errors, 0.9))
    }

    /// Median settle time (s) and samples after Herald's distance steps (see the type's documentation).
    func settle(_ series: RSSISeries, _ kind: RSSIFilterKind) -> (Double?, Double?) {
        let estimates = series.filtered(with: kind)
        var stepStarts: [Int] = [0]
        for i in 1..<series.truth.count where series.truth[i] != series.truth[i - 1] { stepStarts.append(i) }
        stepStarts.append(series.truth.count)
        var seconds: [Double] = [], samples: [Double] = []
        for k in 1..<(stepStarts.count - 1) {
            let previous = Array(series.rssi[stepStarts[k - 1]..<stepStarts[k]])
            let current = Array(series.rssi[stepStarts[k]..<stepStarts[k + 1]])
            guard let before = Statistics.quantile(previous, 0.5), let target = Statistics.quantile(current, 0.5),
                abs(target - before) >= 4
            else { continue }
            let first = stepStarts[k], end = stepStarts[k + 1]
            let settled = (first..<end).first { abs(estimates[$0] - target) <= 2 } ?? (end - 1)
            seconds.append((series.times[settled] - series.times[first]).secondsValue)
            samples.append(Double(settled - first + 1))
        }
        return (Statistics.quantile(seconds, 0.5), Statistics.quantile(samples, 0.5))
    }

    /// Room changes of the strongest-scanner rule over the starksm64 walk.
    func roomSwitches(_ scanners: [String: [BeaconSighting]], _ kind: RSSIFilterKind) -> Int? {
        let names = scanners.keys.sorted()
        guard var loops = try? names.map({ _ in try RangingLoop(configuration: .init(filter: kind)) }) else { return nil }
        let all = scanners.values.flatMap { $0 }
        guard let first = all.map(\.timestamp).min(), let last = all.map(\.timestamp).max() else { return nil }
        var next = names.map { _ in 0 }
        var room: String?
        var switches = 0
        // Cycle boundaries are whole seconds (the loop aligns cycles to the epoch).
        var boundary = Timestamp(nanosecondsSinceEpoch: (first.nanosecondsSinceEpoch / 1_000_000_000 + 1) * 1_000_000_000)
        while boundary <= last + .seconds(1) {
            var best: (name: String, rssi: Double)?
            for (s, name) in names.enumerated() {
                let sightings = scanners[name]!
                var latest: Double?
                let take: (RangingUpdate) -> Void = { update in
                    if update.time == boundary { latest = update.beacons.first?.filteredRSSI }
                }
                while next[s] < sightings.count, sightings[next[s]].timestamp < boundary {
                    loops[s].ingest(sightings[next[s]], onUpdate: take)
                    next[s] += 1
                }
                loops[s].advance(to: boundary, onUpdate: take)
                if let rssi = latest, rssi > best?.rssi ?? -.infinity { best = (name, rssi) }
            }
            if let best {
                if let room, room != best.name { switches += 1 }
                room = best.name
            }
            boundary = boundary + .seconds(1)
        }
        return switches
    }
}
