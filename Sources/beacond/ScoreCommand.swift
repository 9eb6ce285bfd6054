import ArgumentParser
import BeaconCore
import BeaconSimulator

/// `beacond score`: precision, recall and latency of delivered alerts against a simulation's truth.
struct ScoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Scores delivered alerts against the ground truth of a simulation.",
        discussion: """
            An alert matches a visit of the same beacon when its time falls within \
            [visit start, visit end + tolerance]; each visit is matched at most once. \
            See Docs/Simulator.md.
            """)

    @Option(help: "Ground-truth JSON lines written by `beacond simulate --truth`.")
    var truth: String

    @Option(help: "Alert events (JSON lines); only \"event\": \"delivered\" lines count.")
    var alerts: String

    @Option(help: "Recompute visits with this radius in metres (default: the truth file's visits).")
    var radius: Double?

    @Option(help: "Recompute visits with this minimum duration, e.g. 60s.")
    var minDuration: String?

    @Option(help: "How long after a visit ends an alert still matches it, e.g. 30s.")
    var tolerance: String = "30s"

    func run() throws {
        guard let toleranceValue = Duration(parsing: tolerance) else {
            throw ValidationError("--tolerance must be a duration such as 30s")
        }
        var definition: VisitDefinition?
        if radius != nil || minDuration != nil {
            var value = VisitDefinition()
            if let radius { value.radius = radius }
            if let minDuration {
                guard let parsed = Duration(parsing: minDuration) else {
                    throw ValidationError("--min-duration must be a duration such as 60s")
                }
                value.minimumDuration = parsed
            }
            definition = value
        }
        let visits = try Scoring.readVisits(path: truth, definition: definition)
        let delivered = try Scoring.readAlerts(path: alerts)
        let scores = Scoring.score(alerts: delivered, visits: visits, tolerance: toleranceValue)
        print(ScoreTable.render(scores))
    }
}
