import ArgumentParser
import Logging

/// `beacond hub --config site.yaml`: a site hub — its gateways' reports from the broker, fused
/// into rooms and positions, through the configured strategies, engine and sinks.
struct HubCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hub",
        abstract: "Runs a site hub: fuses the gateways' reports into rooms and positions, then alerts as configured.",
        discussion: """
            The configuration has site: (name, broker), gateways: (id, room, position of each), \
            optionally hub: (fusion settings, partition), and the same alerts:, state:, sinks: and \
            http: as beacond run; it is beacond run with source: hub. See Docs/Site.md. \
            SIGHUP (or POST /reload) re-reads the file as for beacond run: only alerts: change live.
            Exit status: 0 after a signal; 2 for a configuration that cannot run; 1 otherwise.
            """
    )

    /// A configuration that cannot be a hub's.
    @Option(help: ArgumentHelp("The site hub's configuration (YAML).", valueName: "file"))
    var config: String

    @OptionGroup var plugins: PluginOptions

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        try await RunCommand.run(config: config, plugins: plugins, logging: logging, asHub: true)
    }
}
