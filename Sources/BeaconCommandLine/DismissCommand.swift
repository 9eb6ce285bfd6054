import ArgumentParser
import BeaconAlertEngine

/// `beacond dismiss INSTANCE [--suppress 1d]`: dismisses a delivered alert on a running daemon.
struct DismissCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dismiss",
        abstract: "Dismisses a delivered alert on a running daemon: its reminders stop.",
        discussion: """
            With --suppress the alert does not fire again for that beacon for that long (30m, 1d) or for good \
            ('forever') — until `beacond unsuppress` lifts it. \
            The same as: curl -X POST 'http://127.0.0.1:9464/alerts/dismiss?instance=…&suppress=1d'
            """
    )

    @Argument(help: "The alert instance: the 'instance' of its delivered event.")
    var instance: String

    @Option(help: ArgumentHelp("Who dismisses (named in the event).", valueName: "name"))
    var by: String = "anonymous"

    @Option(help: ArgumentHelp("Also keep the alert from firing for the beacon: 30m, 1d, … or forever.", valueName: "time"))
    var suppress: String?

    @OptionGroup var endpoint: ControlEndpointOptions

    func validate() throws {
        guard AlertInstance(instance) != nil else {
            throw ValidationError(AlertAnswerError.malformedInstance(instance).description)
        }
        if let suppress, AlertSuppression(parsing: suppress) == nil {
            throw ValidationError("--suppress '\(suppress)' is not a duration (30m, 1d) or 'forever'")
        }
    }

    func run() async throws {
        var query = [("instance", instance), ("by", by), ("via", "cli")]
        if let suppress { query.append(("suppress", suppress)) }
        try await endpoint.post("/alerts/dismiss", query: query)
    }
}
