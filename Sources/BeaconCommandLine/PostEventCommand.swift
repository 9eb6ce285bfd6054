import ArgumentParser
import BeaconControl
import BeaconCore
import Foundation

/// `beacond post-event NAME`: posts a named event to a running daemon's HTTP endpoint, which
/// cancels the pending alerts whose `cancelOn` lists `{event: NAME}`.
struct PostEventCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post-event",
        abstract: "Posts a named event to a running daemon (its `http:` endpoint).",
        discussion: """
            The daemon cancels the pending alerts whose cancelOn lists {event: NAME}, for every beacon \
            or only --beacon. It prints the daemon's answer: {"event":…,"beacon":…,"time":…,"cancelled":N}.
            The same as: curl -X POST 'http://127.0.0.1:9464/events/NAME?beacon=ID'
            """
    )

    @Argument(help: "The event's name (letters, digits, '.', '_', '-').")
    var name: String

    @Option(help: ArgumentHelp("Only this beacon (ibeacon:UUID:major:minor, altbeacon:…, eddystone-uid:…).", valueName: "id"))
    var beacon: String?

    @OptionGroup var endpoint: ControlEndpointOptions

    func validate() throws {
        guard ControlRoutes.isValidEventName(name) else {
            throw ValidationError("'\(name)' is not an event name: use 1–64 letters, digits, '.', '_' or '-'")
        }
        if let beacon, BeaconID(beacon) == nil {
            throw ValidationError(
                "'\(beacon)' is not a beacon id: write ibeacon:UUID:major:minor, altbeacon:UUID:id2:id3 "
                    + "or eddystone-uid:NAMESPACE:INSTANCE")
        }
    }

    func run() async throws {
        try await endpoint.post("/events/\(name)", query: beacon.map { [("beacon", $0)] } ?? [])
    }
}
