import ArgumentParser
import BeaconBlueZ
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconStrategies
import BeaconStrategyKit
import Logging

/// `beacond run --config FILE`: the gateway daemon — source → pipeline → outbox → sinks, with
/// the HTTP control endpoint beside it, as services of one service group.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Runs the gateway: source, alert pipeline and sinks, as configured.",
        discussion: """
            The configuration names the source (hci:hci0, replay:FILE, simulate:FILE), the state file, \
            the sinks (jsonl, webhook, exec, mqtt), the alerts and the HTTP endpoint (metrics, health, \
            posted events); see Docs/Daemon.md. Every event is written to each sink's outbox in the \
            state file before it is delivered, and removed once the sink confirms it: delivery is at \
            least once, and survives crashes and restarts.
            SIGTERM/SIGINT stop the source, then give each sink a last attempt; a second signal exits at once. \
            SIGHUP (systemctl reload, POST /reload) re-reads the file: checked first, applied whole or not at all; \
            only alerts: change live, any other change is refused and named (Docs/Daemon.md, "Reloading").
            Exit status: 0 after a source that ended (replay, simulation) or a signal; 2 for a \
            configuration that cannot run; 69, 77 or 75 when the radio cannot work (no Bluetooth or \
            adapter, no permission, adapter down or busy), as for `beacond scan`; 1 otherwise.
            """
    )

    @Option(help: ArgumentHelp("The gateway configuration (YAML).", valueName: "file"))
    var config: String

    @OptionGroup var plugins: PluginOptions

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        try await Self.run(config: config, plugins: plugins, logging: logging)
    }

    /// Runs the daemon of a configuration file through ``DaemonRun``; `asHub` makes it a site hub
    /// (`beacond hub`).
    static func run(config: String, plugins: PluginOptions, logging: LoggingOptions, asHub: Bool = false) async throws {
        let logger = logging.logger()
        let registry = try plugins.registry()
        let daemon: DaemonRun
        do {
            // What check-config checks, first: a file that cannot run says so at its line.
            _ = try ConfigurationCheck.check(path: config, registry: registry)
            let configuration = try GatewayConfiguration.load(path: config)
            daemon = try await DaemonRun.start(
                asHub ? configuration.asHub(file: config) : configuration, file: config, registry: registry, logger: logger,
                say: { printError("beacond: \($0)") })
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        let gateway = daemon.gateway
        logger.notice("running \(gateway.sourceName) with \(gateway.configuration.sinks.count) sinks")
        do {
            try await daemon.run()
        } catch let error as BlueZScannerError {
            // The radio cannot work: the same status as `beacond scan` (69 unavailable, 77 no
            // permission, 75 adapter down or busy), which the systemd unit does not restart on.
            printError("error: the radio: \(error)")
            throw ExitCode(ScanCommand.exitStatus(for: error))
        } catch {
            printError("error: \(error)")
            throw ExitCode(1)
        }
        printError(ReplayCommand.summary(gateway.statistics, label: "beacond"))
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
