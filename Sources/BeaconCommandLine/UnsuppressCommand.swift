import ArgumentParser
import BeaconCore

/// `beacond unsuppress --alert ID --beacon BEACON`: lifts the suppression a dismissal put on an
/// alert for a beacon.
struct UnsuppressCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unsuppress",
        abstract: "Lifts the suppression a dismissal put on an alert for a beacon, on a running daemon.",
        discussion: "Prints {\"lifted\": true} or, when none was in force, {\"lifted\": false}."
    )

    @Option(help: ArgumentHelp("The alert's id.", valueName: "id"))
    var alert: String

    @Option(help: ArgumentHelp("The beacon (ibeacon:UUID:major:minor, altbeacon:…, eddystone-uid:…).", valueName: "id"))
    var beacon: String

    @OptionGroup var endpoint: ControlEndpointOptions

    func validate() throws {
        guard BeaconID(beacon) != nil else {
            throw ValidationError(
                "'\(beacon)' is not a beacon id: write ibeacon:UUID:major:minor, altbeacon:… or eddystone-uid:…")
        }
    }

    func run() async throws {
        try await endpoint.post("/alerts/unsuppress", query: [("alert", alert), ("beacon", beacon)])
    }
}
