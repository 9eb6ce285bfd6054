import BeaconCore
import BeaconSimulator

/// What a tune looks for: the highest recall among the candidates whose precision and latency
/// meet the bounds — by default recall at precision ≥ 0.99 and 95th-percentile latency ≤ 90 s.
///
/// Candidates are ranked: those that meet the bounds first, then by recall (higher first),
/// precision (higher first), the latency percentile and the median latency (lower first), and
/// the candidate's number, so that a ranking never depends on anything but the scores.
public struct TuningObjective: Hashable, Sendable {
    /// The lowest precision accepted (0…1).
    public var minimumPrecision: Double
    /// The highest latency accepted at ``latencyPercentile``; nil accepts any.
    public var maximumLatency: Duration?
    /// The latency percentile bounded and reported (0 < p ≤ 1; 0.95 by default).
    public var latencyPercentile: Double

    /// An objective.
    public init(minimumPrecision: Double = 0.99, maximumLatency: Duration? = .seconds(90), latencyPercentile: Double = 0.95) {
        self.minimumPrecision = minimumPrecision
        self.maximumLatency = maximumLatency
        self.latencyPercentile = latencyPercentile
    }

    /// The percentile's name: `p95`.
    public var percentileName: String {
        let hundredths = latencyPercentile * 100
        return hundredths == hundredths.rounded() ? "p\(Int(hundredths))" : "p\(hundredths)"
    }

    /// Whether `score` meets the bounds. A score with visits but no matched alert has no latency
    /// and meets a latency bound only when there is none.
    public func isMet(by score: Scoring.Score) -> Bool {
        guard score.precision >= minimumPrecision else { return false }
        guard let maximumLatency, score.matchedAlerts > 0 else { return maximumLatency == nil || score.visits == 0 }
        return score.percentile(latencyPercentile).map { $0 <= maximumLatency } ?? false
    }

    /// The objective in words: `highest recall at precision ≥ 0.99 and p95 latency ≤ 1m30s`.
    public var summary: String {
        var text = "highest recall at precision ≥ \(minimumPrecision)"
        if let maximumLatency { text += " and \(percentileName) latency ≤ \(maximumLatency.humanReadable)" }
        return text
    }

    /// Whether `a` ranks before `b` (see the type's description).
    public func ranks(_ a: TuningOutcome, before b: TuningOutcome) -> Bool {
        if a.meetsObjective != b.meetsObjective { return a.meetsObjective }
        if a.tuning.recall != b.tuning.recall { return a.tuning.recall > b.tuning.recall }
        if a.tuning.precision != b.tuning.precision { return a.tuning.precision > b.tuning.precision }
        let infinite = Duration.seconds(Int64.max / 1_000_000_000)
        let (pa, pb) = (a.tuning.percentile(latencyPercentile) ?? infinite, b.tuning.percentile(latencyPercentile) ?? infinite)
        if pa != pb { return pa < pb }
        let (ma, mb) = (a.tuning.medianLatency ?? infinite, b.tuning.medianLatency ?? infinite)
        if ma != mb { return ma < mb }
        return a.candidate.number < b.candidate.number
    }
}
