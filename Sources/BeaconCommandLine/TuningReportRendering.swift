import BeaconCore
import BeaconOfflineRuns
import BeaconSimulator
import BeaconStrategyKit

/// `beacond tune`'s output: a table of the candidates best first, the winner and where the
/// configured values stand — or one JSON object.
enum TuningReportRendering {
    /// The table (the first `top` rows; 0: all), the winner and the configured values' rank.
    static func text(_ report: TuningReport, parameters: [String], top: Int) -> String {
        let objective = report.objective
        let p = objective.percentileName
        var lines = [
            "tune \(report.alertID): \(report.outcomes.count) candidates on \(report.runs.count) run(s) (\(report.runs.joined(separator: ", "))); \(percent(report.heldBackShare)) of (run, beacon) pairs held back",
            "objective: \(objective.summary)",
            "",
        ]
        var rows = [
            ["rank"] + parameters + ["precision", "recall", "median", p, "alerts", "visits", "held-back P/R/\(p)", "meets"]
        ]
        let shown = top > 0 ? report.outcomes.prefix(top) : report.outcomes[...]
        for (rank, outcome) in zip(1..., shown) {
            let values = parameters.map { name in
                outcome.candidate.settings.first { $0.name == name }?.value?.configurationText ?? "-"
            }
            let (kept, held) = (outcome.tuning, outcome.heldBack)
            rows.append(
                ["\(rank)"] + values + [
                    fixed(kept.precision), fixed(kept.recall), latency(kept.medianLatency),
                    latency(kept.percentile(objective.latencyPercentile)), "\(kept.alerts)", "\(kept.visits)",
                    outcome.hasHeldBack
                        ? "\(fixed(held.precision)) \(fixed(held.recall)) \(latency(held.percentile(objective.latencyPercentile)))"
                        : "-",
                    outcome.meetsObjective
                        ? (outcome.heldBackMeetsObjective || !outcome.hasHeldBack ? "yes" : "yes (not held-back)") : "no",
                ])
        }
        lines.append(ScoreTable.aligned(rows))
        if top > 0, report.outcomes.count > top { lines.append("… \(report.outcomes.count - top) more (--top 0 shows all)") }
        lines.append("")
        if let winner = report.winner {
            let heldBack =
                !winner.hasHeldBack
                ? "nothing was held back (--hold-back 0, or too few beacons to hold any back)"
                : winner.heldBackMeetsObjective
                    ? "the held-back visits meet the objective too"
                    : "but the held-back visits do not meet the objective: the winner may be fitted to noise; try more --seeds"
            lines.append("best: \(winner.candidate.label) — \(heldBack)")
        } else {
            lines.append("no candidate meets the objective; the table is ranked by recall, then precision, then latency")
        }
        if let configured = report.configured, let rank = report.outcomes.firstIndex(where: { $0.candidate.number == 1 }) {
            lines.append("configured: \(configured.candidate.label) — rank \(rank + 1) of \(report.outcomes.count)")
        }
        return lines.joined(separator: "\n")
    }

    /// One JSON object: the objective, the runs and every candidate best first.
    static func json(_ report: TuningReport) -> String {
        var json = JSONWriter()
        let objective = report.objective
        json.object { object in
            object.member("alert", report.alertID)
            object.key("objective")
            object.object { row in
                row.member("min_precision", objective.minimumPrecision)
                row.member("max_latency_s", objective.maximumLatency?.secondsValue)
                row.member("percentile", objective.latencyPercentile)
            }
            object.key("runs")
            object.array { array in for run in report.runs { array.value(run) } }
            object.member("held_back_share", report.heldBackShare)
            object.member("winner", report.winner?.candidate.number)
            object.key("candidates")
            object.array { array in
                for outcome in report.outcomes {
                    array.object { row in
                        row.member("candidate", outcome.candidate.number)
                        row.key("parameters")
                        row.object { parameters in
                            for setting in outcome.candidate.settings {
                                parameters.member(setting.name, setting.value?.configurationText)
                            }
                        }
                        row.member("meets_objective", outcome.meetsObjective)
                        row.member("held_back_meets_objective", outcome.hasHeldBack ? outcome.heldBackMeetsObjective : nil)
                        for (name, score) in [("tuning", outcome.tuning), ("held_back", outcome.heldBack)] {
                            row.key(name)
                            row.object { part in
                                part.member("precision", score.precision)
                                part.member("recall", score.recall)
                                part.member("alerts", score.alerts)
                                part.member("matched", score.matchedAlerts)
                                part.member("visits", score.visits)
                                part.member("median_latency_s", score.medianLatency?.secondsValue)
                                part.member("percentile_latency_s", score.percentile(objective.latencyPercentile)?.secondsValue)
                            }
                        }
                    }
                }
            }
        }
        return json.string
    }

    private static func fixed(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    private static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded())) %" }

    private static func latency(_ value: Duration?) -> String { value?.humanReadable ?? "-" }
}
