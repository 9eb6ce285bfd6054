import ArgumentParser

/// `--scenario FILE | --capture FILE… | --site SITE.yaml`: the input the offline tools
/// (`explain`, `diff-alerts`) run again, given once for all of them.
struct OfflineInputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A scenario to simulate (a gateway's, or a site's).", valueName: "file"))
    var scenario: String?

    @Option(name: .customLong("capture"), help: ArgumentHelp("A recording to replay (repeatable).", valueName: "file"))
    var captures: [String] = []

    @Option(help: ArgumentHelp("A site's recordings (as replay --site takes them).", valueName: "site.yaml"))
    var site: String?

    /// The input they name (exactly one).
    func resolve() throws -> OfflineInput {
        try OfflineInput.resolve(scenario: scenario, captures: captures, site: site)
    }
}
