import ArgumentParser
import BeaconDaemonConfiguration
import BeaconGateway

/// The gateway configuration whose `state:` file a command works on (`beacond outbox`, `beacond
/// state`): read and checked, or a message and exit status 2.
struct StateFileOption: ParsableArguments {
    @Option(help: ArgumentHelp("The gateway configuration (its `state:` file is used).", valueName: "file"))
    var config: String

    /// The configuration and its state file's path; `missing` says why a command needs one.
    func load(missing: String) throws -> (configuration: GatewayConfiguration, statePath: String) {
        let configuration: GatewayConfiguration
        do { configuration = try GatewayConfiguration.load(path: config) } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        guard let path = configuration.statePath else {
            printError("error: \(config) has no `state:` file: \(missing)")
            throw ExitCode(2)
        }
        return (configuration, path)
    }
}
