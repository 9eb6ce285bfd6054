import ArgumentParser
import BeaconAlertEngine

/// `beacond ack INSTANCE`: acknowledges a delivered alert on a running daemon — its reminders stop.
struct AcknowledgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ack",
        abstract: "Acknowledges a delivered alert on a running daemon: its reminders stop.",
        discussion: """
            INSTANCE is the 'instance' of the delivered event (alert|beacon|delivered|due; quote it in a shell). \
            Acknowledging the same instance again is harmless ("repeated": true). \
            The same as: curl -X POST 'http://127.0.0.1:9464/alerts/acknowledge?instance=…&by=…'
            """
    )

    @Argument(help: "The alert instance: the 'instance' of its delivered event.")
    var instance: String

    @Option(help: ArgumentHelp("Who acknowledges (named in the event).", valueName: "name"))
    var by: String = "anonymous"

    @OptionGroup var endpoint: ControlEndpointOptions

    func validate() throws {
        guard AlertInstance(instance) != nil else {
            throw ValidationError(AlertAnswerError.malformedInstance(instance).description)
        }
    }

    func run() async throws {
        try await endpoint.post("/alerts/acknowledge", query: [("instance", instance), ("by", by), ("via", "cli")])
    }
}
