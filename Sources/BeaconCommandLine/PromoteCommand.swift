import ArgumentParser

/// `beacond promote`: makes a running daemon's shadow alert set its live one.
struct PromoteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promote",
        abstract: "Makes a running daemon's shadow alert set live (see `beacond shadow`).",
        discussion: """
            The shadow's alerts replace the live ones as a remote alert set would: an alert whose definition \
            is unchanged keeps its beacons' state, and the engine keeps its history. The change lasts until \
            the daemon restarts: put the alerts in its configuration to keep them. Exit status 1 when no \
            shadow runs. The same as: curl -X POST http://127.0.0.1:9464/shadow/promote
            """
    )

    @OptionGroup var endpoint: ControlEndpointOptions

    func run() async throws {
        try await endpoint.post("/shadow/promote")
    }
}
