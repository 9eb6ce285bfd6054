import ArgumentParser
import BeaconGateway
import BeaconStrategies
import BeaconStrategyKit

/// `beacond check-config FILE`: validates a gateway configuration without starting anything.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validates a gateway configuration (keys, source, sinks, alerts and strategies); starts nothing.",
        discussion: "Exit status 0 when valid; 2 with file:line: what is wrong on stderr otherwise."
    )

    @Argument(help: ArgumentHelp("The gateway configuration (YAML).", valueName: "file"))
    var file: String

    @Option(
        name: .customLong("plugin"),
        help: ArgumentHelp(
            "Load strategies from this plugin (a shared library).",
            valueName: "path"))
    var plugins: [String] = []

    func run() throws {
        let registry = try StrategyRegistry.builtIn(plugins: plugins)
        do {
            let summary = try checkGatewayConfiguration(path: file, registry: registry)
            print("\(file): valid — \(summary)")
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }
}
