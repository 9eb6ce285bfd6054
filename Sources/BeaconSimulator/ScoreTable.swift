import BeaconCore

/// Renders scores as a plain-text table (what `beacond score` prints).
public enum ScoreTable {
    /// One row per alert id: alerts, visits, matched, precision, recall, median and p90 latency.
    public static func render(_ scores: [Scoring.Score]) -> String {
        var rows = [["alert", "alerts", "visits", "matched", "precision", "recall", "latency p50", "latency p90"]]
        for score in scores {
            rows.append([
                score.alertID, "\(score.alerts)", "\(score.visits)", "\(score.matchedAlerts)",
                percent(score.precision), percent(score.recall),
                score.medianLatency.map(\.humanReadable) ?? "-",
                score.p90Latency.map(\.humanReadable) ?? "-",
            ])
        }
        if scores.isEmpty { return "no delivered alerts" }
        return aligned(rows)
    }

    /// `rows` as plain-text columns, each as wide as its widest cell, two spaces apart, without
    /// trailing spaces (`beacond score`'s table and `beacond tune`'s).
    public static func aligned(_ rows: [[String]]) -> String {
        guard let first = rows.first else { return "" }
        let widths = first.indices.map { column in rows.map { $0[column].count }.max()! }
        return rows.map { row in
            var line = row.enumerated().map { $1 + String(repeating: " ", count: widths[$0] - $1.count) }
                .joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    static func percent(_ value: Double) -> String {
        "\((value * 1000).rounded() / 10)%"
    }
}
