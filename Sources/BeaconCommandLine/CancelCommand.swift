import ArgumentParser
import BeaconAlertEngine

/// `beacond cancel INSTANCE`: cancels one alert instance on a running daemon — a scheduled one
/// before its delivery, or a delivered one's pending reminder.
struct CancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancels one alert instance on a running daemon: scheduled, or reminding.",
        discussion: """
            INSTANCE is the 'instance' of the alert's created event (a scheduled delivery), or of a delivery \
            whose reminder is pending; GET /api/alerts names each waiting alert's as 'cancel' (quote it in a \
            shell). One 'cancelled' event names who cancelled, and the alert's callbackCancelled is called. \
            Cancelling a reminding instance again is harmless ("repeated": true). \
            The same as: curl -X POST 'http://127.0.0.1:9464/alerts/cancel?instance=…&by=…'
            """
    )

    @Argument(help: "The alert instance: the 'instance' of its created event, or of a reminding delivery.")
    var instance: String

    @Option(help: ArgumentHelp("Who cancels (named in the event).", valueName: "name"))
    var by: String = "anonymous"

    @OptionGroup var endpoint: ControlEndpointOptions

    func validate() throws {
        guard AlertInstance(instance) != nil else {
            throw ValidationError(AlertAnswerError.malformedInstance(instance).description)
        }
    }

    func run() async throws {
        try await endpoint.post("/alerts/cancel", query: [("instance", instance), ("by", by), ("via", "cli")])
    }
}
