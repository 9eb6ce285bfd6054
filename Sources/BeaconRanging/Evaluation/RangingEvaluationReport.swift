/// The scores of a ``RangingEvaluation``, printable as Markdown tables.
public struct RangingEvaluationReport: Sendable, CustomStringConvertible {
    /// Median and 90th percentile of the absolute distance error (m).
    public struct ErrorSummary: Sendable {
        /// Median absolute error (m), `nil` without scored samples.
        public var median: Double?
        /// 90th-percentile absolute error (m), `nil` without scored samples.
        public var p90: Double?
    }

    /// One filter's scores.
    public struct FilterScore: Sendable {
        /// The filter's name (`raw (none)` for the baseline).
        public var name: String
        /// One summary per series, in ``RangingEvaluationReport/series`` order.
        public var errors: [ErrorSummary] = []
        /// Median settle time after Herald's steps (s).
        public var settleSeconds: Double?
        /// Median settle time after Herald's steps (samples).
        public var settleSamples: Double?
        /// Room changes of the strongest-scanner rule on starksm64.
        public var roomSwitches: Int?
        /// Cross-correlation lag on the walking track (s) and the correlation at that lag.
        public var trackLagSeconds: Double?
        public var trackCorrelation: Double?
    }

    /// Path-loss exponent of the filter table.
    public var exponent: Double
    /// Names of the scored series.
    public var series: [String]
    /// Per filter.
    public var filters: [FilterScore] = []
    /// Per exponent (ARMA filter): one summary per series.
    public var exponents: [(exponent: Double, errors: [ErrorSummary])] = []

    public var description: String {
        var out =
            "Distance error |d̂ − d| in m, median / p90, log-distance n = \(Statistics.fixed(exponent, 1)); "
            + "settle after Herald steps ≥ 4 dB (median s / samples); starksm64 room switches; "
            + "walking-track cross-correlation lag (s) and correlation.\n\n"
        out +=
            "| filter | " + series.joined(separator: " | ")
            + " | settle s | settle samples | room switches | track lag s | track r |\n"
        out += "|---|" + String(repeating: "---|", count: series.count + 5) + "\n"
        for f in filters {
            out += "| \(f.name) | " + f.errors.map(Self.cell).joined(separator: " | ")
            out += " | \(Statistics.fixed(f.settleSeconds, 0)) | \(Statistics.fixed(f.settleSamples, 0)) | "
            out += (f.roomSwitches.map(String.init) ?? "–") + " | "
            out += "\(Statistics.fixed(f.trackLagSeconds, 1)) | \(Statistics.fixed(f.trackCorrelation, 2)) |\n"
        }
        out += "\nPath-loss exponent (ARMA filter): distance error median / p90 (m).\n\n"
        out += "| n | " + series.joined(separator: " | ") + " |\n"
        out += "|---|" + String(repeating: "---|", count: series.count) + "\n"
        for (n, errors) in exponents {
            out += "| \(Statistics.fixed(n, 2)) | " + errors.map(Self.cell).joined(separator: " | ") + " |\n"
        }
        return out
    }

    private static func cell(_ e: ErrorSummary) -> String {
        "\(Statistics.fixed(e.median, 2)) / \(Statistics.fixed(e.p90, 2))"
    }
}
