import ArgumentParser
import BeaconGateway
import BeaconStrategies
import BeaconStrategyKit

/// `beacond check-config FILE`: validates a gateway's or a site hub's configuration (or an
/// alerts-only file) without starting anything, and says which kind of file it checked.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract:
            "Validates a gateway's or a site hub's configuration (keys, source, sinks, alerts and strategies); starts nothing.",
        discussion: """
            The kind of file is told by its keys: source: (a gateway, for beacond run); site: and gateways: \
            (a site hub, for beacond hub: its rooms count as regions, its hub: options are checked); neither \
            (an alerts-only file, for beacond replay/simulate --config). The first line says which it checked.
            Exit status 0 when valid; 2 with file:line: what is wrong on stderr otherwise.
            """
    )

    @Argument(help: ArgumentHelp("The configuration (YAML): a gateway's, a hub's or an alerts file.", valueName: "file"))
    var file: String

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        let registry = try plugins.registry()
        do {
            let summary = try checkGatewayConfiguration(path: file, registry: registry)
            print("\(file): valid — \(summary)")
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }
}
