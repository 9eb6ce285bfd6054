import ArgumentParser
import BeaconCore
import BeaconSimulator

/// `beacond score`: precision, recall and latency of delivered alerts against a simulation's truth.
struct ScoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Scores delivered alerts, or a site's rooms and positions, against the ground truth.",
        discussion: """
            With --alerts: an alert matches a visit of the same beacon when its time falls within \
            [visit start, visit end + tolerance]; each visit is matched at most once. \
            See Docs/Simulator.md.
            With --presence (the lines of replay --site --presence): the share of time in a true \
            stay with the right room, room changes within stays, and the median and 90th percentile \
            of the position error; the truth lines are stays {"from","to","room"} or positions \
            {"time","x","y","z"}. See Docs/Site.md.
            """)

    @Option(help: "Ground-truth JSON lines written by `beacond simulate --truth`.")
    var truth: String

    @Option(help: "Alert events (JSON lines); only \"event\": \"delivered\" lines count.")
    var alerts: String?

    @Option(help: "A site's presence lines (replay --site --presence): score rooms and positions.")
    var presence: String?

    @Option(help: "Recompute visits with this radius in metres (default: the truth file's visits).")
    var radius: Double?

    @Option(help: "Recompute visits with this minimum duration, e.g. 60s.")
    var minDuration: String?

    @Option(help: "How long after a visit ends an alert still matches it, e.g. 30s.")
    var tolerance: String = "30s"

    func validate() throws {
        if (alerts == nil) == (presence == nil) { throw ValidationError("give --alerts FILE or --presence FILE") }
    }

    func run() throws {
        if let presence {
            print(try SiteScoring.score(presence: presence, truth: truth).text)
            return
        }
        guard let alerts else { return }
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
